// Miller's backtracking for the Langford problem L(2,n) on the GPU: each thread completes
// sub-task masks (colours top..1 still to place) by depth-first search over bit masks.
//
// The search is that of miller_cpu._dfs: under free-position mask f, the candidate first-cube
// positions of colour c are the set bits of f & (f >> (c+1)); the lowest untried candidate is
// placed, and on exhaustion the search backs up one colour. Colours 2 and 1 are counted in
// place (last2) instead of being descended into.
//
// Load balance: sub-task sizes vary by orders of magnitude, so the loop below is flat: each
// iteration is one DFS step, and a thread whose sub-task is exhausted fetches the next one from
// an atomic counter (`next`) in the same loop. Lanes of a warp stay busy until the list is
// empty instead of idling behind the warp's largest subtree, and they reconverge every step.
// State: the free mask f and the level c in registers; per level only the candidate word
// (its lowest bit is the choice being explored). Free masks are undone with XOR on the way up.
// The per-level words live either in local memory (SHARED = false; the thesis used L1 and no
// shared memory) or in dynamic shared memory laid out [level][thread] (SHARED = true): lanes of
// a warp sit at different levels, which scatters local-memory accesses over many cache lines,
// while in shared memory the bank of word (level, t) depends on t only, so a warp's access is
// conflict-free whatever the levels. Launch with (top + 1) * blockDim * 8 bytes of shared memory.

#if defined(__CUDACC__)

// Number of ways to place colours 2 and 1 in the four free positions of f.
__device__ __forceinline__ unsigned long long last2(long long f) {
  unsigned long long k = 0;
  long long cd = f & (f >> 3);
  while (cd) {
    const long long low = cd & -cd;
    cd ^= low;
    const long long h = f ^ (low | (low << 3));
    k += (h & (h >> 2)) != 0 ? 1 : 0;
  }
  return k;
}

template <int N, bool SHARED>
__global__ void __launch_bounds__(128) miller_count(const long long *masks, const int *owner,
                                                    long long num, int top,
                                                    unsigned long long *counts,
                                                    unsigned long long *next) {
  const long long full = (1LL << (2 * N)) - 1;
  extern __shared__ long long lf_stack[];
  long long local_stack[SHARED ? 1 : N + 1];
  // word of level c for this thread
#define CANDS(c) (SHARED ? lf_stack[(c) * blockDim.x + threadIdx.x] : local_stack[(c)])
  long long f = 0;
  long long idx = -1;
  unsigned long long cnt = 0;
  int c = 0;  // 0: fetch the next sub-task
  while (true) {
    if (c == 0) {
      if (cnt != 0) atomicAdd(counts + owner[idx], cnt);
      cnt = 0;
      idx = (long long)atomicAdd(next, 1ull);
      if (idx >= num) break;
      f = ~masks[idx] & full;
      if (top <= 2) {
        cnt = (top == 1) ? ((f & (f >> 2)) != 0 ? 1 : 0) : last2(f);
        continue;
      }
      c = top;
      CANDS(c) = f & (f >> (c + 1));
      continue;
    }
    const long long cd = CANDS(c);
    if (cd == 0) {  // level exhausted: back up and undo the parent's current placement
      if (++c > top) {
        c = 0;
        continue;
      }
      const long long cur = CANDS(c) & -CANDS(c);
      f ^= cur | (cur << (c + 1));
      CANDS(c) ^= cur;
      continue;
    }
    const long long cur = cd & -cd;
    const long long g = f ^ (cur | (cur << (c + 1)));
    if (c == 3) {
      cnt += last2(g);
      CANDS(c) = cd ^ cur;
      continue;
    }
    f = g;
    --c;
    CANDS(c) = f & (f >> (c + 1));
  }
#undef CANDS
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void miller_count<19, false>(const long long *, const int *, long long, int,
                                                 unsigned long long *, unsigned long long *);
template __global__ void miller_count<19, true>(const long long *, const int *, long long, int,
                                                unsigned long long *, unsigned long long *);
#endif

#endif  // __CUDACC__
