//===- Atom.h - What a formula's variable stands for ------------*- C++ -*-===//
//
// The variables of a count formula are typed: a kernel parameter the user
// can give (`n`), a CUDA index that varies within a launch (`threadIdx.x`),
// a launch's shape (`blockDim.x`), the scalable vector multiple (`vscale`),
// the trip count of a loop the compiler could not count (`trip_L12`), or
// the floor of a quotient of two polynomials (`floor(n/4)`). An atom is its
// kind and its name, the name its spelling in a formula: text read without
// the kernel's parameter list is typed by its spelling, with the list a
// parameter stays one whatever it is called. A floor keeps its operands,
// so that it can be evaluated and searched.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_ATOM_H
#define ROOFLINE_MODEL_ATOM_H

#include <memory>
#include <string>
#include <vector>

namespace roofline {

class Polynomial;

/// A floor's quotient a hair below an integer through floating-point
/// rounding is that integer: the evaluator (Polynomial::evaluate) and the
/// IR FormulaCode.cpp emits add this first.
constexpr double FloorSlack = 1e-9;

enum class AtomKind {
  Parameter,   ///< a kernel parameter, or any value a user may bind
  ThreadIndex, ///< threadIdx.*, blockIdx.*, laneid: varies within a launch
  LaunchDim,   ///< blockDim.*, gridDim.*: a launch binds it
  VScale,      ///< the scalable vector length, in multiples of 128 bits
  UnknownTrip, ///< trip_L<line>: a loop's trip count no analysis found
  Unknown,     ///< `unknown`: a value the analysis could not name (an
               ///< argument without a closed form)
  Floor,       ///< floor(N/D) of two polynomials
};

class Atom {
public:
  /// The atom a formula's text names, typed by its spelling; a name that
  /// spells a floor, "floor(N/D)", is read back into one. A name in
  /// \p Params (the kernel's parameters, when known) is a parameter
  /// whatever it spells: a C parameter may be called `unknown` or `vscale`.
  static Atom named(const std::string &Name,
                    const std::vector<std::string> *Params = nullptr);
  /// The kernel parameter (or other value a user binds) \p Name.
  static Atom parameter(const std::string &Name);
  /// The unknown trip count of the loop at \p Where (its line, or its
  /// header's name without one): trip_L<Where>.
  static Atom unknownTrip(const std::string &Where);
  static Atom unknown();
  /// floor(N/D), spelled \p Text.
  static Atom floorOf(const Polynomial &N, const Polynomial &D, std::string Text);
  /// A floor spelled \p Text whose operands are not polynomials (involves()
  /// then answers yes to everything).
  static Atom opaqueFloor(std::string Text);

  AtomKind kind() const { return D->Kind; }
  const std::string &name() const { return D->Name; }
  /// A floor's operands (null for other kinds, and for a floor whose text
  /// could not be read back).
  const Polynomial *numerator() const { return D->Num.get(); }
  const Polynomial *divisor() const { return D->Den.get(); }

  /// This atom is \p Other, or a floor with it in an operand.
  bool involves(const std::string &Other) const;
  /// This atom is of kind \p K, or a floor with one in an operand.
  bool involves(AtomKind K) const;

  /// By name, then kind; one (kind, name) is one atom, so equality is
  /// identity.
  bool operator<(const Atom &O) const {
    return D != O.D && (D->Name != O.D->Name ? D->Name < O.D->Name
                                             : D->Kind < O.D->Kind);
  }
  bool operator==(const Atom &O) const { return D == O.D; }
  bool operator!=(const Atom &O) const { return D != O.D; }

private:
  /// What an atom is, kept once per kind and name for the life of the
  /// process:
  /// atoms are copied with every term of every polynomial, and a pointer
  /// copies and compares for free.
  struct Data {
    AtomKind Kind;
    std::string Name;
    std::shared_ptr<const Polynomial> Num, Den;
  };
  explicit Atom(const Data *D) : D(D) {}
  /// The atom of kind \p K spelled \p Name, made of the rest when it is new (a floor
  /// read back without operands gains them when they come).
  static Atom intern(AtomKind K, std::string Name,
                     const Polynomial *Num = nullptr,
                     const Polynomial *Den = nullptr);
  /// \p Is holds for this atom or one in a floor's operands (an unreadable
  /// floor may hold anything).
  template <typename Pred> bool involvesIf(Pred Is) const;
  const Data *D;
};

} // namespace roofline

#endif
