//===- Monomial.h - A product of atoms with exponents -----------*- C++ -*-===//
//
// One term's variables: atoms with exponents, sorted by name ("M*N^2"). A
// polynomial holds one per term, and the static pass builds and drops
// hundreds of thousands of polynomials per translation unit: a monomial of
// up to four atoms (nearly all of them) lives inside its term, with no
// allocation of its own; a longer one moves to the heap.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_MONOMIAL_H
#define ROOFLINE_MODEL_MONOMIAL_H

#include "roofline/Model/Atom.h"

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace roofline {

class Monomial {
public:
  using value_type = std::pair<Atom, unsigned>;

  Monomial() = default;
  Monomial(std::initializer_list<value_type> Factors) {
    for (const value_type &F : Factors)
      push_back(F);
  }
  Monomial(const Monomial &O) { append(O); }
  Monomial(Monomial &&O) noexcept { take(O); }
  Monomial &operator=(const Monomial &O) {
    if (this != &O) {
      Size = 0;
      append(O);
    }
    return *this;
  }
  Monomial &operator=(Monomial &&O) noexcept {
    if (this != &O) {
      Heap.reset();
      Capacity = InlineFactors;
      take(O);
    }
    return *this;
  }

  bool empty() const { return Size == 0; }
  unsigned size() const { return Size; }
  const value_type *begin() const { return data(); }
  const value_type *end() const { return data() + Size; }
  const value_type &operator[](unsigned I) const { return data()[I]; }
  /// Mutable, for reordering the factors to print them.
  value_type *begin() { return data(); }
  value_type *end() { return data() + Size; }

  void push_back(const value_type &F) {
    if (Size == Capacity)
      grow();
    new (data() + Size) value_type(F);
    ++Size;
  }

  bool operator==(const Monomial &O) const {
    return Size == O.Size && std::equal(begin(), end(), O.begin());
  }
  bool operator!=(const Monomial &O) const { return !(*this == O); }
  /// Lexicographic over the factors, as std::vector's.
  bool operator<(const Monomial &O) const {
    return std::lexicographical_compare(begin(), end(), O.begin(), O.end());
  }

private:
  static constexpr unsigned InlineFactors = 4;
  // Factors are never destroyed one by one: an Atom is one pointer.
  static_assert(std::is_trivially_destructible_v<value_type>);
  struct Release {
    void operator()(value_type *P) const { ::operator delete(P); }
  };

  value_type *data() {
    return Heap ? Heap.get()
                : std::launder(reinterpret_cast<value_type *>(Inline));
  }
  const value_type *data() const {
    return Heap ? Heap.get()
                : std::launder(reinterpret_cast<const value_type *>(Inline));
  }
  void append(const Monomial &O) {
    for (const value_type &F : O)
      push_back(F);
  }
  /// Moves \p O's factors here (this one empty and inline) and empties it.
  void take(Monomial &O) {
    if (O.Heap) {
      Heap = std::move(O.Heap);
      Capacity = O.Capacity;
      Size = O.Size;
    } else {
      std::uninitialized_copy(O.begin(), O.end(), data());
      Size = O.Size;
    }
    O.Size = 0;
    O.Capacity = InlineFactors;
  }
  void grow() {
    unsigned NewCapacity = Capacity * 2;
    std::unique_ptr<value_type, Release> Bigger(static_cast<value_type *>(
        ::operator new(NewCapacity * sizeof(value_type))));
    std::uninitialized_copy(begin(), end(), Bigger.get());
    Heap = std::move(Bigger);
    Capacity = NewCapacity;
  }

  unsigned Size = 0;
  unsigned Capacity = InlineFactors;
  alignas(value_type) unsigned char Inline[InlineFactors * sizeof(value_type)];
  std::unique_ptr<value_type, Release> Heap;
};

} // namespace roofline

#endif
