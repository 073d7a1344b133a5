//===- LaunchFinder.cpp - Launch sequences in host functions --------------===//
#include "LaunchFinder.h"
#include "HostExpr.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace clang;

namespace roofline {

namespace {

/// HIP's runtime API names CUDA's with "hip" for "cuda".
StringRef asCUDAName(StringRef N, std::string &Buffer) {
  if (!N.starts_with("hip"))
    return N;
  Buffer = ("cuda" + N.drop_front(3)).str();
  return Buffer;
}

bool isSyncName(StringRef N) {
  std::string B;
  N = asCUDAName(N, B);
  return N == "cudaDeviceSynchronize" || N == "cudaStreamSynchronize" ||
         N == "cudaEventSynchronize" || N == "cudaThreadSynchronize" ||
         N == "cuCtxSynchronize" || N == "cuStreamSynchronize";
}
bool isCopyName(StringRef N) {
  std::string B;
  N = asCUDAName(N, B);
  return N.starts_with("cudaMemcpy") || N.starts_with("cuMemcpy") ||
         N == "memcpy" || N == "memmove" || N == "__builtin_memcpy" ||
         N == "__builtin_memmove";
}
bool isFreeName(StringRef N) {
  std::string B;
  N = asCUDAName(N, B);
  return N == "free" || N == "cudaFree" || N == "cudaFreeAsync" ||
         N == "cudaFreeHost" || N == "cuMemFree";
}
bool isAllocName(StringRef N) {
  std::string B;
  N = asCUDAName(N, B);
  return N == "cudaMalloc" || N == "cudaMallocManaged" ||
         N == "cudaMallocHost" || N == "cudaMallocAsync" || N == "cuMemAlloc";
}
bool isFillName(StringRef N) {
  std::string B;
  N = asCUDAName(N, B);
  return N == "memset" || N.starts_with("cudaMemset") ||
         N == "__builtin_memset";
}

/// A buffer-like variable: pointers, arrays and objects (std::vector).
bool isBufferType(QualType T) {
  T = T.getNonReferenceType();
  return T->isPointerType() || T->isArrayType() || T->isRecordType();
}

/// Whether \p FD's body launches a counted kernel, directly or through
/// functions it calls (at most \p Depth deep): a wrapper the walk follows.
bool launchesKernels(const FunctionDecl *FD,
                     const std::function<bool(const FunctionDecl *)> &IsKernel,
                     unsigned Depth) {
  FD = FD ? FD->getDefinition() : nullptr;
  if (!FD || !FD->hasBody() || Depth == 0)
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const std::function<bool(const FunctionDecl *)> &IsKernel;
    unsigned Depth;
    bool Found = false;
    Finder(const std::function<bool(const FunctionDecl *)> &IsKernel, unsigned Depth)
        : IsKernel(IsKernel), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee)
        return true;
      std::string B;
      if (isa<CUDAKernelCallExpr>(CE) || (Callee->getIdentifier() &&
                                          asCUDAName(Callee->getName(), B) ==
                                              "cudaLaunchKernel"))
        Found |= true;
      else if (!IsKernel(Callee))
        Found |= launchesKernels(Callee, IsKernel, Depth - 1);
      return !Found;
    }
  } F(IsKernel, Depth);
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

/// Walks one host function body in source order.
class BodyWalker : public RecursiveASTVisitor<BodyWalker> {
  using Base = RecursiveASTVisitor<BodyWalker>;

public:
  BodyWalker(ASTContext &Ctx, const KernelTable &Kernels, MangleContext &MC,
             HostFunction &Fn)
      : Ctx(Ctx), Kernels(Kernels), MC(MC), Fn(Fn), Reader(Ctx, Fn) {}

  bool TraverseCallExpr(CallExpr *CE) {
    return handleCall(CE) || traverseOther(CE, [&] {
             return Base::TraverseCallExpr(CE);
           });
  }
  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *CE) {
    return handleCall(CE) || traverseOther(CE, [&] {
             return Base::TraverseCUDAKernelCallExpr(CE);
           });
  }
  bool TraverseCXXMemberCallExpr(CXXMemberCallExpr *CE) {
    // v.size(), v.empty() do not read the elements.
    if (const CXXMethodDecl *M = CE->getMethodDecl())
      if (M->getIdentifier() &&
          (M->getName() == "size" || M->getName() == "empty" ||
           M->getName() == "capacity"))
        return true;
    return traverseOther(CE, [&] { return Base::TraverseCXXMemberCallExpr(CE); });
  }
  // Control flow: each branch and each loop is its own scope; launches in
  // different scopes do not always run back to back.
  bool TraverseIfStmt(IfStmt *S) {
    if (S->getInit() && !TraverseStmt(S->getInit()))
      return false;
    if (S->getConditionVariableDeclStmt() &&
        !TraverseStmt(S->getConditionVariableDeclStmt()))
      return false;
    return TraverseStmt(S->getCond()) && scoped(S->getThen()) &&
           scoped(S->getElse());
  }
  bool TraverseForStmt(ForStmt *S) {
    return loop(S, [&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    return loop(S, [&] { return Base::TraverseCXXForRangeStmt(S); });
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return loop(S, [&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    // `do { ... } while (0)`, a macro's statement (hipLaunchKernelGGL's),
    // runs its body once, in line.
    const Expr *Cond = S->getCond()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<IntegerLiteral>(Cond);
        C && C->getValue().isZero())
      return Base::TraverseDoStmt(S);
    return loop(S, [&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    return scoped(S, [&] { return Base::TraverseSwitchStmt(S); });
  }
  bool TraverseCXXDeleteExpr(CXXDeleteExpr *D) {
    event(HostEvent::Release, D->getArgument(), D, "delete");
    return true;
  }
  bool TraverseBinaryOperator(BinaryOperator *BO) {
    // p = q: p names another buffer from here on.
    if (BO->getOpcode() == BO_Assign &&
        isa<DeclRefExpr>(stripCasts(BO->getLHS())) &&
        BO->getLHS()->getType()->isPointerType()) {
      event(HostEvent::Release, BO->getLHS(), BO, "assignment");
      return TraverseStmt(BO->getRHS());
    }
    if (BO->isAssignmentOp())
      assigned(BO->getLHS(), BO);
    return Base::TraverseBinaryOperator(BO);
  }
  bool TraverseCompoundAssignOperator(CompoundAssignOperator *BO) {
    assigned(BO->getLHS(), BO);
    return Base::TraverseCompoundAssignOperator(BO);
  }
  bool TraverseUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      assigned(UO->getSubExpr(), UO);
    // &x hands out the variable's address (void *args[] = {&a}); taking it
    // reads nothing.
    if (UO->getOpcode() == UO_AddrOf &&
        isa<DeclRefExpr>(stripCasts(UO->getSubExpr())))
      return true;
    return Base::TraverseUnaryOperator(UO);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && Reader.argumentOf(VD))
      VD = Reader.bufferVariable(DRE); // a wrapper's parameter: the caller's
    if (!VD || !isBufferType(VD->getType()))
      return true;
    std::string What = "'" + (Context.empty() ? VD->getNameAsString()
                                              : Context.back()) + "'";
    add(HostEvent::Read, VD, DRE, What);
    return true;
  }

private:
  template <typename F> bool scoped(const Stmt *S, F Traverse) {
    Scopes.push_back(S);
    bool R = Traverse();
    Scopes.pop_back();
    return R;
  }
  bool scoped(Stmt *S) {
    return !S || scoped(S, [&] { return TraverseStmt(S); });
  }
  /// A loop: a scope, and the span of events one iteration runs.
  template <typename F> bool loop(const Stmt *S, F Traverse) {
    size_t Index = Fn.Loops.size();
    Fn.Loops.push_back({Fn.Events.size(), 0});
    Loops.push_back(Index);
    bool R = scoped(S, Traverse);
    Loops.pop_back();
    Fn.Loops[Index].End = Fn.Events.size();
    return R;
  }

  /// Any other call: the buffers in its arguments count as read (it may
  /// read them), named by the call's text.
  template <typename F> bool traverseOther(Expr *E, F Traverse) {
    Context.push_back(Reader.text(E));
    bool R = Traverse();
    Context.pop_back();
    return R;
  }

  SourceLoc loc(SourceLocation L) {
    const SourceManager &SM = Ctx.getSourceManager();
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
    SourceLoc S;
    if (P.isValid()) {
      S.File = P.getFilename();
      S.Line = P.getLine();
      S.Column = P.getColumn();
    }
    return S;
  }

  void add(HostEvent::Kind K, const VarDecl *VD, const Stmt *At,
           const std::string &What) {
    HostEvent E;
    E.K = K;
    E.BufferKey = variableKey(VD);
    E.Loc = loc(At->getBeginLoc());
    E.What = What;
    Fn.Events.push_back(E);
  }
  void event(HostEvent::Kind K, const Expr *Arg, const Stmt *At,
             const std::string &What) {
    if (const VarDecl *VD = Reader.bufferVariable(Arg))
      add(K, VD, At, What);
  }

  /// An integer or dim3 variable (or a member of one: grid.x) gets a new
  /// value: a launch shape that reads it reads another value after.
  void assigned(const Expr *LHS, const Stmt *At) {
    const Expr *E = stripCasts(LHS);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = stripCasts(ME->getBase());
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || VD->getType()->isPointerType())
      return;
    HostEvent Ev;
    Ev.K = HostEvent::Assign;
    Ev.BufferKey = variableKey(VD);
    Ev.Loc = loc(At->getBeginLoc());
    Ev.What = "'" + VD->getNameAsString() + "'";
    Fn.Events.push_back(Ev);
  }

  const AuditKernel *kernelOf(const FunctionDecl *FD) {
    if (!FD)
      return nullptr;
    std::string Name;
    if (MC.shouldMangleDeclName(FD)) {
      llvm::raw_string_ostream OS(Name);
      GlobalDecl GD = FD->hasAttr<CUDAGlobalAttr>()
                          ? GlobalDecl(FD, KernelReferenceKind::Kernel)
                          : GlobalDecl(FD);
      MC.mangleName(GD, OS);
    } else if (FD->getIdentifier()) {
      Name = FD->getName().str();
    }
    auto It = Kernels.find(Name);
    return It == Kernels.end() ? nullptr : &It->second;
  }

  /// Records a launch of \p K (declared as \p FD) with \p Args.
  void launch(const AuditKernel &K, const FunctionDecl *FD,
              const std::vector<const Expr *> &Args, const CallExpr *CE,
              std::optional<LaunchShape> Shape) {
    Launch L;
    L.Kernel = &K;
    L.Callee = FD->getNameAsString();
    L.Loc = CallSites.empty() ? loc(CE->getBeginLoc()) : CallSites.front();
    L.Shape = Shape;
    if (Shape)
      L.ShapeVariables = std::move(ShapeVariables);
    for (const Stmt *S : Scopes)
      L.Scope += std::to_string(reinterpret_cast<uintptr_t>(S)) + "/";
    L.Loops = Loops;
    const FunctionDecl *Def = FD->getDefinition() ? FD->getDefinition() : FD;
    // A summary compiled without -g names the parameters it has no name
    // for by position (arg0, arg1, ...): such a name binds to the argument
    // at that position, as a named parameter binds by name, unless one of
    // the host declaration's parameters is called that.
    std::set<std::string> HostNames;
    for (const ParmVarDecl *PV : Def->parameters())
      if (PV->getIdentifier())
        HostNames.insert(PV->getNameAsString());
    const std::vector<std::string> &Used = K.Record.Params;
    for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I) {
      const ParmVarDecl *PV = Def->getParamDecl(I);
      if (PV->getType()->isPointerType()) {
        L.Pointers[I] = Reader.buffer(Args[I]);
        continue;
      }
      if (!PV->getType()->isIntegerType())
        continue;
      std::string Positional = "arg" + std::to_string(I);
      bool ByPosition =
          !HostNames.count(Positional) &&
          std::find(Used.begin(), Used.end(), Positional) != Used.end();
      if (!PV->getIdentifier() && !ByPosition)
        continue;
      Polynomial Value = Reader.integer(Args[I]);
      if (PV->getIdentifier())
        L.Bindings[PV->getNameAsString()] = Value;
      if (ByPosition)
        L.Bindings[Positional] = Value;
    }
    if (Shape) {
      static const char *Axis[] = {"x", "y", "z"};
      for (int I = 0; I < 3; ++I) {
        L.Bindings[std::string("gridDim.") + Axis[I]] = Shape->Grid[I];
        L.Bindings[std::string("blockDim.") + Axis[I]] = Shape->Block[I];
      }
    }
    HostEvent E;
    E.K = HostEvent::LaunchEvent;
    E.LaunchIndex = Fn.Launches.size();
    E.Loc = L.Loc;
    E.What = L.Callee;
    Fn.Launches.push_back(std::move(L));
    Fn.Events.push_back(E);
  }

  LaunchShape shape(const Expr *Grid, const Expr *Block) {
    LaunchShape S;
    Reader.startRecording();
    Reader.dim3(Grid, S.Grid);
    Reader.dim3(Block, S.Block);
    ShapeVariables = Reader.stopRecording();
    return S;
  }

  /// cudaLaunchKernel(func, grid, block, args, ...): the kernel from func,
  /// its arguments from the initializer of the local `void *args[]`.
  bool cudaLaunchKernel(CallExpr *CE) {
    if (CE->getNumArgs() < 4)
      return false;
    const Expr *F = stripCasts(CE->getArg(0));
    if (const auto *UO = dyn_cast<UnaryOperator>(F))
      F = stripCasts(UO->getSubExpr());
    const auto *FRef = dyn_cast<DeclRefExpr>(F);
    const auto *FD = FRef ? dyn_cast<FunctionDecl>(FRef->getDecl()) : nullptr;
    const AuditKernel *K = kernelOf(FD);
    if (!K)
      return false;
    const auto *ArgsRef = dyn_cast<DeclRefExpr>(stripCasts(CE->getArg(3)));
    const auto *ArgsVar =
        ArgsRef ? dyn_cast<VarDecl>(ArgsRef->getDecl()) : nullptr;
    const auto *Init = ArgsVar ? dyn_cast_or_null<InitListExpr>(
                                     stripCasts(ArgsVar->getInit()))
                               : nullptr;
    if (!Init)
      return false;
    std::vector<const Expr *> Args;
    for (const Expr *A : Init->inits()) {
      const Expr *S = stripCasts(A);
      const auto *UO = dyn_cast<UnaryOperator>(S);
      if (!UO || UO->getOpcode() != UO_AddrOf)
        return false;
      Args.push_back(UO->getSubExpr()); // &x passes x
    }
    launch(*K, FD, Args, CE, shape(CE->getArg(1), CE->getArg(2)));
    return true;
  }

  /// Launches, synchronisation, copies, frees; false for any other call.
  bool handleCall(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (auto *KC = dyn_cast<CUDAKernelCallExpr>(CE)) {
      const AuditKernel *K = kernelOf(FD);
      const CallExpr *Config = KC->getConfig();
      if (!K || !Config || Config->getNumArgs() < 2)
        return false;
      std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
      launch(*K, FD, Args, CE, shape(Config->getArg(0), Config->getArg(1)));
      return true;
    }
    if (!FD || !FD->getIdentifier())
      return false;
    StringRef N = FD->getName();
    std::string Text = Reader.text(CE);
    if (N == "cudaLaunchKernel")
      return cudaLaunchKernel(CE);
    if (isSyncName(N)) {
      HostEvent E;
      E.K = HostEvent::Sync;
      E.Loc = loc(CE->getBeginLoc());
      E.What = N.str() + "()";
      Fn.Events.push_back(E);
      return true;
    }
    if (isCopyName(N) && CE->getNumArgs() >= 2) {
      HostEvent E;
      E.K = HostEvent::Sync;
      E.Loc = loc(CE->getBeginLoc());
      E.What = N.str() + "()";
      Fn.Events.push_back(E);
      event(HostEvent::Read, CE->getArg(1), CE, "'" + Text + "'");
      event(HostEvent::Write, CE->getArg(0), CE, "'" + Text + "'");
      return true;
    }
    if (isFillName(N) && CE->getNumArgs() >= 1) {
      event(HostEvent::Write, CE->getArg(0), CE, "'" + Text + "'");
      return true;
    }
    if ((isFreeName(N) || isAllocName(N)) && CE->getNumArgs() >= 1) {
      event(HostEvent::Release, CE->getArg(0), CE, "'" + Text + "'");
      return true;
    }
    const AuditKernel *K = kernelOf(FD);
    if (!K)
      return followWrapper(CE, FD);
    if (K->isCUDA())
      return false;
    std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
    launch(*K, FD, Args, CE, std::nullopt);
    return true;
  }

  /// A function that launches kernels (llm.c's layernorm_forward(...) {
  /// kernel<<<grid, block>>>(...); }): its launches are launches at this
  /// call, its parameters the call's arguments. Recursion and deep chains
  /// stay calls.
  bool followWrapper(CallExpr *CE, const FunctionDecl *FD) {
    const FunctionDecl *Def = FD->getDefinition();
    auto IsKernel = [&](const FunctionDecl *F) { return kernelOf(F) != nullptr; };
    if (!Def || !Def->hasBody() || Wrappers.size() >= 4 ||
        std::find(Wrappers.begin(), Wrappers.end(), Def) != Wrappers.end() ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
        !launchesKernels(Def, IsKernel, 4 - Wrappers.size()))
      return false;
    if (CallSites.empty())
      CallSites.push_back(loc(CE->getBeginLoc()));
    Wrappers.push_back(Def);
    Reader.enterCall(Def, CE);
    bool R = TraverseStmt(Def->getBody());
    Reader.leaveCall();
    Wrappers.pop_back();
    if (Wrappers.empty())
      CallSites.clear();
    return R;
  }

  ASTContext &Ctx;
  const KernelTable &Kernels;
  MangleContext &MC;
  HostFunction &Fn;
  HostExprReader Reader;
  std::vector<std::string> Context; ///< texts of the enclosing calls
  std::vector<const Stmt *> Scopes;  ///< enclosing branches and loops
  std::vector<size_t> Loops;         ///< enclosing loops, in Fn.Loops
  std::vector<const FunctionDecl *> Wrappers; ///< being followed, outermost first
  std::vector<SourceLoc> CallSites;  ///< the outermost wrapper's call
  std::map<std::string, std::string> ShapeVariables; ///< of the last shape()
};

/// Finds the host functions of the main file.
class FunctionVisitor : public RecursiveASTVisitor<FunctionVisitor> {
public:
  FunctionVisitor(ASTContext &Ctx, const KernelTable &Kernels,
                  std::vector<HostFunction> &Out)
      : Ctx(Ctx), Kernels(Kernels), Out(Out),
        MC(Ctx.createMangleContext()) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        FD->hasAttr<CUDAGlobalAttr>() ||
        (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()) ||
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      return true;
    HostFunction Fn;
    Fn.Name = FD->getQualifiedNameAsString();
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(FD->getLocation()));
    if (P.isValid())
      Fn.Loc = {P.getFilename(), P.getLine(), P.getColumn()};
    BodyWalker W(Ctx, Kernels, *MC, Fn);
    W.TraverseStmt(FD->getBody());
    if (Fn.Launches.size() >= 2)
      Out.push_back(std::move(Fn));
    return true;
  }

private:
  ASTContext &Ctx;
  const KernelTable &Kernels;
  std::vector<HostFunction> &Out;
  std::unique_ptr<MangleContext> MC;
};

class Consumer : public ASTConsumer {
public:
  Consumer(const KernelTable &Kernels, std::vector<HostFunction> &Out)
      : Kernels(Kernels), Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    FunctionVisitor V(Ctx, Kernels, Out);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  const KernelTable &Kernels;
  std::vector<HostFunction> &Out;
};

class Action : public ASTFrontendAction {
public:
  Action(const KernelTable &Kernels, std::vector<HostFunction> &Out)
      : Kernels(Kernels), Out(Out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<Consumer>(Kernels, Out);
  }

private:
  const KernelTable &Kernels;
  std::vector<HostFunction> &Out;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const KernelTable &Kernels, std::vector<HostFunction> &Out)
      : Kernels(Kernels), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Kernels, Out);
  }

private:
  const KernelTable &Kernels;
  std::vector<HostFunction> &Out;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newLaunchFinderFactory(const KernelTable &Kernels,
                       std::vector<HostFunction> &Out) {
  return std::make_unique<Factory>(Kernels, Out);
}

} // namespace roofline
