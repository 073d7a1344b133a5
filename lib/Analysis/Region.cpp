//===- Region.cpp - One loop level's acyclic graph ------------------------===//
#include "Region.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"

using namespace llvm;

namespace roofline::detail {

int Region::nodeOf(const LoopInfo &LI, BasicBlock *BB) const {
  Loop *BL = LI.getLoopFor(BB);
  if (L && !L->contains(BB))
    return Sink;
  const void *Key = BB;
  if (BL != L) {
    while (BL->getParentLoop() != L)
      BL = BL->getParentLoop();
    Key = BL;
  }
  auto It = Index.find(Key);
  return It == Index.end() ? Sink : int(It->second);
}

Region Region::build(const FunctionScope &S, Loop *L, Findings &Found) {
  Region R;
  R.L = L;
  auto Add = [&](BasicBlock *BB) {
    Loop *BL = S.LI.getLoopFor(BB);
    RegionNode N;
    const void *Key = BB;
    if (BL == L) {
      N.BB = BB;
    } else {
      while (BL->getParentLoop() != L)
        BL = BL->getParentLoop();
      N.Sub = BL;
      Key = BL;
    }
    if (R.Index.count(Key))
      return;
    R.Index[Key] = R.Nodes.size();
    R.Nodes.push_back(N);
  };
  if (L)
    for (BasicBlock *BB : L->blocks())
      Add(BB);
  else
    for (BasicBlock &BB : S.F)
      Add(&BB);

  // Reverse post-order over the acyclic graph (back edges to the header and
  // edges leaving the loop are not followed).
  BasicBlock *Entry = L ? L->getHeader() : &S.F.getEntryBlock();
  unsigned EntryIdx = R.nodeOf(S.LI, Entry);
  std::vector<char> State(R.Nodes.size(), 0); // 0 new, 1 open, 2 done
  std::vector<unsigned> Post;
  std::vector<std::pair<unsigned, std::vector<int>>> Stack;
  auto Successors = [&](unsigned N) {
    std::vector<int> Succs;
    if (Loop *Sub = R.Nodes[N].Sub) {
      SmallVector<BasicBlock *, 4> Exits;
      Sub->getUniqueExitBlocks(Exits);
      for (BasicBlock *E : Exits)
        Succs.push_back(R.nodeOf(S.LI, E));
    } else {
      for (BasicBlock *Succ : successors(R.Nodes[N].BB))
        if (!(L && Succ == L->getHeader()))
          Succs.push_back(R.nodeOf(S.LI, Succ));
    }
    return Succs;
  };
  State[EntryIdx] = 1;
  Stack.push_back({EntryIdx, Successors(EntryIdx)});
  bool Irreducible = false;
  while (!Stack.empty()) {
    auto &[N, Succs] = Stack.back();
    if (Succs.empty()) {
      State[N] = 2;
      Post.push_back(N);
      Stack.pop_back();
      continue;
    }
    int Next = Succs.back();
    Succs.pop_back();
    if (Next == Sink)
      continue;
    if (State[Next] == 1)
      Irreducible = true;
    if (State[Next] != 0)
      continue;
    State[Next] = 1;
    Stack.push_back({unsigned(Next), Successors(Next)});
  }
  if (Irreducible)
    Found.note("irreducible control flow in " +
               (L ? loopText(L) : std::string("the function body")) +
               ": counts of the blocks in the cycle are not summed");
  R.Order.assign(Post.rbegin(), Post.rend());
  return R;
}

/// The walk of reaches() and reachableFrom(): stops early when \p Visit
/// returns true.
template <typename VisitT>
static void walkFrom(const Loop *L, BasicBlock *From, VisitT Visit) {
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (Visit(BB))
      return;
    if (L && (!L->contains(BB) || (BB == L->getHeader() && BB != From)))
      continue;
    for (BasicBlock *Succ : successors(BB))
      Work.push_back(Succ);
  }
}

bool Region::reaches(BasicBlock *From, BasicBlock *To) const {
  bool Found = false;
  walkFrom(L, From, [&](BasicBlock *BB) { return Found = BB == To; });
  return Found;
}

SmallPtrSet<BasicBlock *, 32> Region::reachableFrom(BasicBlock *From) const {
  SmallPtrSet<BasicBlock *, 32> Out;
  walkFrom(L, From, [&](BasicBlock *BB) {
    Out.insert(BB);
    return false;
  });
  return Out;
}

} // namespace roofline::detail
