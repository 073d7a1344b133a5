//===- HostExpr.cpp - Host expressions as formulas and buffers ------------===//
#include "HostExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

using namespace clang;

namespace roofline {

const Expr *stripCasts(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(Next))
      Next = C->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *F = dyn_cast<FullExpr>(Next))
      Next = F->getSubExpr();
    else if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Next))
      Next = D->getExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

std::string HostExprReader::text(const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(
      SM.getExpansionRange(E->getSourceRange()).getAsRange());
  std::string T =
      Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  // One line, single spaces: it goes into messages.
  std::string Out;
  for (char C : T) {
    if (std::isspace((unsigned char)C)) {
      if (!Out.empty() && Out.back() != ' ')
        Out += ' ';
    } else {
      Out += C;
    }
  }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out;
}

namespace {

/// Whether every use of \p VD in \p Body only reads its value: no
/// assignment, increment, address taken or reference bound to it.
class OnlyReadChecker : public RecursiveASTVisitor<OnlyReadChecker> {
public:
  OnlyReadChecker(ASTContext &Ctx, const VarDecl *VD) : Ctx(Ctx), VD(VD) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() != VD)
      return true;
    // (N) in a macro's expansion (CEIL_DIV(N, b)): the read is outside
    // the parentheses.
    DynTypedNodeList Parents = Ctx.getParents(*E);
    while (Parents.size() == 1 && Parents[0].get<ParenExpr>())
      Parents = Ctx.getParents(*Parents[0].get<ParenExpr>());
    const auto *Cast =
        Parents.size() == 1 ? Parents[0].get<ImplicitCastExpr>() : nullptr;
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
      OnlyRead = false;
    return OnlyRead;
  }

  bool OnlyRead = true;

private:
  ASTContext &Ctx;
  const VarDecl *VD;
};

} // namespace

const Expr *HostExprReader::singleValue(const VarDecl *VD) {
  // A local integer initialised where it is declared and never changed
  // after (int b = 256, g = (n + b - 1) / b;) stands for its initializer.
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->hasInit() ||
      !VD->getType()->isIntegerType() || VD->getType().isVolatileQualified())
    return nullptr;
  auto [It, New] = SingleValues.try_emplace(VD, nullptr);
  if (!New)
    return It->second;
  const auto *F = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return nullptr;
  OnlyReadChecker Check(Ctx, VD);
  Check.TraverseStmt(F->getBody());
  if (Check.OnlyRead)
    It->second = VD->getInit();
  return It->second;
}

std::string variableKey(const VarDecl *VD) {
  return "var:" + std::to_string(reinterpret_cast<uintptr_t>(VD->getCanonicalDecl()));
}

Polynomial HostExprReader::variable(const std::string &Name,
                                    const VarDecl *VD) {
  if (Recording && VD)
    Recorded[variableKey(VD)] = Name;
  // A constant the source fixes is a value for evaluating the formulas; the
  // formulas keep the name.
  if (VD && VD->getType().isConstQualified() && VD->getAnyInitializer()) {
    if (const APValue *V = VD->evaluateValue(); V && V->isInt()) {
      Fn.KnownValues[Name] = double(V->getInt().getSExtValue());
      return Polynomial::variable(Name);
    }
  }
  // A variable assigned once: its value, in the names it is computed from
  // (not while expanding it already: int x = x + 1).
  if (VD && !Expanding.count(VD))
    if (const Expr *Init = singleValue(VD)) {
      Expanding.insert(VD);
      Polynomial P = integer(Init);
      Expanding.erase(VD);
      return P;
    }
  return Polynomial::variable(Name);
}

Polynomial HostExprReader::opaque(const Expr *E) {
  std::string T = text(E), Name;
  for (char C : T) {
    bool Ok = std::isalnum((unsigned char)C) || C == '_' || C == '.';
    if (Ok)
      Name += C;
    else if (!Name.empty() && Name.back() != '_')
      Name += '_';
  }
  while (!Name.empty() && (Name.back() == '_' || Name.back() == '.'))
    Name.pop_back();
  if (Name.empty() || std::isdigit((unsigned char)Name[0]) || Name[0] == '.')
    Name = "x_" + Name;
  // a+b and a*b both read a_b: the second becomes a_b_2.
  std::string Unique = Name;
  for (unsigned I = 2; Fn.Opaque.count(Unique) && Fn.Opaque[Unique] != T; ++I)
    Unique = Name + "_" + std::to_string(I);
  Fn.Opaque[Unique] = T;
  return Polynomial::variable(Unique);
}

void HostExprReader::enterCall(const FunctionDecl *Callee, const CallExpr *Call) {
  std::map<const VarDecl *, const Expr *> Frame;
  for (unsigned I = 0; I < Callee->getNumParams() && I < Call->getNumArgs(); ++I)
    Frame[Callee->getParamDecl(I)] = Call->getArg(I);
  Frames.push_back(std::move(Frame));
}

const Expr *HostExprReader::argumentOf(const VarDecl *VD) const {
  if (Frames.empty())
    return nullptr;
  auto It = Frames.back().find(VD);
  return It == Frames.back().end() ? nullptr : It->second;
}

template <typename F> auto HostExprReader::inCaller(const Expr *Arg, F Read) {
  auto Frame = std::move(Frames.back());
  Frames.pop_back();
  auto R = Read(Arg);
  Frames.push_back(std::move(Frame));
  return R;
}

Polynomial HostExprReader::integer(const Expr *E) {
  E = stripCasts(E);
  if (!E || E->isValueDependent())
    return Polynomial::atom(Atom::unknown());
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return Polynomial(int64_t(IL->getValue().getSExtValue()));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return Polynomial(int64_t(EC->getInitVal().getSExtValue()));
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (const Expr *Arg = argumentOf(VD))
        return inCaller(Arg, [&](const Expr *A) { return integer(A); });
      return variable(VD->getNameAsString(), VD);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    Polynomial L = integer(BO->getLHS());
    switch (BO->getOpcode()) {
    case BO_Add:
      return L + integer(BO->getRHS());
    case BO_Sub:
      return L - integer(BO->getRHS());
    case BO_Mul:
      return L * integer(BO->getRHS());
    case BO_Div:
    case BO_Shl: {
      // The divisor or shift must be a constant: a literal, or a local
      // assigned one (int b = 256; ... / b).
      int64_t D = 0;
      Expr::EvalResult R;
      if (BO->getRHS()->EvaluateAsInt(R, Ctx)) {
        D = R.Val.getInt().getSExtValue();
      } else if (isa<DeclRefExpr>(stripCasts(BO->getRHS()))) {
        std::optional<Rational> K = integer(BO->getRHS()).constantValue();
        if (!K || !K->isInteger())
          break;
        D = K->num();
      } else {
        break;
      }
      if (BO->getOpcode() == BO_Shl) {
        if (D < 0 || D > 62)
          break;
        return L * Polynomial(int64_t(1) << D);
      }
      if (D <= 0)
        break;
      // C++ integer division truncates: floor for the non-negative sizes
      // a launch computes.
      if (BO->getType()->isIntegerType())
        return Polynomial::floorOf(L, D);
      return L * Polynomial(Rational(1, D));
    }
    default:
      break;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus)
      return Polynomial(-1) * integer(UO->getSubExpr());
    if (UO->getOpcode() == UO_Plus)
      return integer(UO->getSubExpr());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = stripCasts(ME->getBase());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      return Polynomial::variable(DRE->getDecl()->getNameAsString() + "." +
                                  ME->getMemberDecl()->getNameAsString());
  }
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return Polynomial(int64_t(R.Val.getInt().getSExtValue()));
  return opaque(E);
}

const VarDecl *HostExprReader::bufferVariable(const Expr *E) {
  E = stripCasts(E);
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (const Expr *Arg = VD ? argumentOf(VD) : nullptr)
      return inCaller(Arg, [&](const Expr *A) { return bufferVariable(A); });
    return VD;
  }
  // v.data(), p.get()
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && MC->getNumArgs() == 0 &&
        (M->getName() == "data" || M->getName() == "get"))
      return bufferVariable(MC->getImplicitObjectArgument());
    return nullptr;
  }
  // &a[0], &v[0], &a (cudaMalloc(&a, ...))
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const Expr *Sub = stripCasts(UO->getSubExpr());
    if (isa<DeclRefExpr>(Sub))
      return bufferVariable(Sub);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
      return bufferVariable(AS->getBase());
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Sub))
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
        return bufferVariable(OC->getArg(0));
    return nullptr;
  }
  // thrust::raw_pointer_cast(p) and the like: one pointer argument.
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier() && FD->getName() == "raw_pointer_cast" &&
          CE->getNumArgs() == 1)
        return bufferVariable(CE->getArg(0));
  return nullptr;
}

Buffer HostExprReader::buffer(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripCasts(E)))
    if (const auto *PV = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const Expr *Arg = argumentOf(PV))
        return inCaller(Arg, [&](const Expr *A) { return buffer(A); });
  Buffer B;
  if (const VarDecl *VD = bufferVariable(E)) {
    B.Key = variableKey(VD);
    B.Name = VD->getNameAsString();
    B.Tracked = true;
    if (isa<ParmVarDecl>(VD))
      B.Caveat = "'" + B.Name +
                 "' is a parameter: callers may read it after this function";
    else if (VD->hasGlobalStorage())
      B.Caveat = "'" + B.Name + "' is not local: other code may read it";
    return B;
  }
  B.Name = text(E);
  B.Key = "expr:" + B.Name;
  return B;
}

void HostExprReader::dim3(const Expr *E, Polynomial Out[3]) {
  for (int I = 0; I < 3; ++I)
    Out[I] = Polynomial(1);
  E = stripCasts(E);
  if (!E)
    return;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return dim3(CE->getArg(0), Out);
    for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I)
      Out[I] = integer(CE->getArg(I));
    return;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (unsigned I = 0; I < IL->getNumInits() && I < 3; ++I)
      Out[I] = integer(IL->getInit(I));
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (const Expr *Arg = argumentOf(VD)) {
        inCaller(Arg, [&](const Expr *A) { dim3(A, Out); return true; });
        return;
      }
      if (VD->getType()->isIntegerType()) {
        Out[0] = integer(E);
        return;
      }
      if (const Expr *Init = VD->getInit())
        return dim3(Init, Out);
      for (int I = 0; I < 3; ++I)
        Out[I] = Polynomial::variable(VD->getNameAsString() + "." +
                                      std::string(1, char('x' + I)));
      return;
    }
  if (E->getType()->isIntegerType()) {
    Out[0] = integer(E);
    return;
  }
  Out[0] = opaque(E);
}

} // namespace roofline
