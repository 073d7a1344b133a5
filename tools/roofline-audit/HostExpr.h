//===- HostExpr.h - Host expressions as formulas and buffers ----*- C++ -*-===//
//
// A launch's arguments, read two ways: an integer argument as a polynomial
// in the host's names (`(n + 255) / 256` -> floor((n + 255)/256)), so that
// a kernel's `4*n` becomes a formula in the caller's variables (a local
// assigned once, `int g = (n + 255) / 256;`, stands for its value); a pointer
// argument as the buffer it names (`a`, `v.data()`, `&a[0]` -> a).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_HOSTEXPR_H
#define ROOFLINE_TOOLS_AUDIT_HOSTEXPR_H

#include "HostCode.h"

#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <vector>

namespace roofline {

class HostExprReader {
public:
  HostExprReader(clang::ASTContext &Ctx, HostFunction &Fn) : Ctx(Ctx), Fn(Fn) {}

  /// \p E as a polynomial; what it cannot read becomes a named variable
  /// (listed in Fn.Opaque with its source text).
  Polynomial integer(const clang::Expr *E);
  /// The buffer a pointer argument names.
  Buffer buffer(const clang::Expr *E);
  /// The local variable (or parameter) \p E names, through .data(), &x[0]
  /// and casts; null for anything else.
  const clang::VarDecl *bufferVariable(const clang::Expr *E);
  /// The source text of \p E.
  std::string text(const clang::Expr *E);
  /// A dim3 argument of a launch as x, y, z.
  void dim3(const clang::Expr *E, Polynomial Out[3]);

  /// Inside a wrapper function the walk follows (launch(...) { k<<<...>>>
  /// }), its parameters stand for the caller's arguments: each read above
  /// reads a bound parameter as its argument, in the caller's frame.
  void enterCall(const clang::FunctionDecl *Callee, const clang::CallExpr *Call);
  void leaveCall() { Frames.pop_back(); }
  /// The variables the reads above name while recording (key -> name).
  void startRecording() { Recorded.clear(); Recording = true; }
  std::map<std::string, std::string> stopRecording() {
    Recording = false;
    return std::move(Recorded);
  }
  /// The caller's argument \p PV is bound to, or null.
  const clang::Expr *argumentOf(const clang::VarDecl *VD) const;

private:
  /// Runs \p Read on the argument \p PV is bound to, in the caller's frame.
  template <typename F> auto inCaller(const clang::Expr *Arg, F Read);
  Polynomial variable(const std::string &Name, const clang::VarDecl *VD);
  Polynomial opaque(const clang::Expr *E);
  /// The initializer of a local integer that is never changed after it,
  /// or null.
  const clang::Expr *singleValue(const clang::VarDecl *VD);

  clang::ASTContext &Ctx;
  HostFunction &Fn;
  std::map<const clang::VarDecl *, const clang::Expr *> SingleValues;
  std::set<const clang::VarDecl *> Expanding;
  std::vector<std::map<const clang::VarDecl *, const clang::Expr *>> Frames;
  bool Recording = false;
  std::map<std::string, std::string> Recorded;
};

/// The key host events and buffers give the variable \p VD: "var:<decl>".
std::string variableKey(const clang::VarDecl *VD);

/// Strips parentheses, implicit and explicit casts, temporaries.
const clang::Expr *stripCasts(const clang::Expr *E);

} // namespace roofline

#endif
