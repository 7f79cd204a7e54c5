# Threads searching one value together: a Team (docs/solver.md, Threads).
#
# Every thread of a team runs the whole driver (_solve_value) for the same value on the same
# shared table. What a thread's finished test proves goes into the team's slot of that value
# (the interval only ever narrows), and every thread's driver takes its targets from that
# interval: a test another thread has decided is stopped at the next trick boundary (abort
# 6) and the driver goes on from the narrower interval. Inside a test the threads would walk
# the same tree, so they split it as ABDADA does (Weill's "alpha-beta distributed with
# delayed answers", in the simplified form with a table of moves being searched): at a node
# of a large enough position, a move other than the first that another thread is searching
# right now is put off until after the others. Each thread then proves other subtrees, which
# it stores in the table; the thread that comes back to the move put off mostly finds its
# proof there. ABDADA has no way to tell a thread that a node it is inside has been answered
# by another (YBWC's helpers are told): so a thread that answers a lead node of DEFER_FROM
# tricks or more tells any other thread inside the same node, for the same question, which
# returns to it at its next trick and takes the answer from the table. Values cannot depend
# on this: each test's answer is exact, whichever thread gives it, and the interval holds
# only proven bounds.

cdef enum:
    DEFER_FROM = 12          # fewest tricks left at which a move may be put off: below, a
                             # subtree costs less than the table traffic of sharing it


cdef extern from *:
    """
    #if defined(_MSC_VER)
    static __inline void ts_add32(uint32_t *p, uint32_t v) { _InterlockedExchangeAdd((volatile long *)p, (long)v); }
    static __inline uint64_t ts_load64(uint64_t *p) { return *(volatile uint64_t *)p; }
    static __inline void ts_store64(uint64_t *p, uint64_t v) { *(volatile uint64_t *)p = v; }
    #else
    static inline void ts_add32(uint32_t *p, uint32_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
    static inline uint64_t ts_load64(uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ts_store64(uint64_t *p, uint64_t v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    #endif
    """
    void ts_add32(uint32_t* p, uint32_t v) noexcept nogil
    uint64_t ts_load64(uint64_t* p) noexcept nogil
    void ts_store64(uint64_t* p, uint64_t v) noexcept nogil


cdef inline void _team_bounds(SolverState* st, int* lo, int* hi) noexcept nogil:
    """Narrow lo and hi to what the team has proved of the value searched."""
    cdef TeamState* team = st.team
    cdef int v = <int>ts_load_acquire(&team.lo[st.team_slot])
    if v > lo[0]:
        lo[0] = v
    v = <int>ts_load_acquire(&team.hi[st.team_slot])
    if v < hi[0]:
        hi[0] = v


cdef inline bint _move_bound(uint32_t* p, uint32_t v, bint up) noexcept nogil:
    """Raise (up) or lower the bound at p to v, unless another thread has passed it
    already; whether this call moved it."""
    cdef uint32_t cur = ts_load_acquire(p)
    while (cur < v) if up else (cur > v):
        if ts_cas32(p, cur, v):
            return 1
        cur = ts_load_acquire(p)
    return 0


cdef inline void _team_prove(SolverState* st, int lo, int hi) noexcept nogil:
    """Tell the team the value searched lies in [lo, hi]."""
    cdef bint narrowed = _move_bound(&st.team.lo[st.team_slot], lo, 1)
    if _move_bound(&st.team.hi[st.team_slot], hi, 0) or narrowed:
        ts_add32(&st.team.gen, 1)


cdef inline uint64_t _team_gen(SolverState* st) noexcept nogil:
    """The generation of a test (see SolverState.gen): the team's, so that the threads'
    entries of one test are of one generation (replacement, and the count of entries given
    up that makes the table grow, read it)."""
    return (<uint64_t>(ts_load_acquire(&st.team.gen) & 3)) << 62


cdef inline bint _team_decided(SolverState* st) noexcept nogil:
    """Whether the team has decided the running test (st.team_t) already."""
    cdef int t = st.team_t
    return (<int>ts_load_acquire(&st.team.lo[st.team_slot]) >= t
            or <int>ts_load_acquire(&st.team.hi[st.team_slot]) < t)


cdef inline uint64_t _position_hash(SolverState* st) noexcept nogil:
    """A hash of the exact position at a trick boundary (for the team's table of moves in search)."""
    return _mix64(st.hands[0] ^ _mix64(st.hands[1] ^ _mix64(st.hands[2] + <uint64_t>st.leader)))


cdef inline bint _team_put_off(SolverState* st, uint64_t here, int card, uint64_t** slot,
                               uint64_t* mine) noexcept nogil:
    """Whether another thread of the team is searching this move (card) at this position
    (hash here) now: then it is put off. Else this thread claims it (slot, mine: what
    _team_release needs)."""
    mine[0] = _mix64(here + <uint64_t>card) | 1
    slot[0] = &st.team.busy[mine[0] >> (64 - BUSY_BITS)]
    if ts_load64(slot[0]) == mine[0]:
        return 1
    ts_store64(slot[0], mine[0])
    return 0


cdef inline uint64_t _answer_key(SolverState* st, uint64_t here, int target, int n) noexcept nogil:
    """The key of a lead node's question (its exact position, hash here, the target and
    the player, the tricks left n in the low bits): two threads at the same key ask the
    same, whatever led them there."""
    return ((_mix64(here ^ (<uint64_t>(target * 4 + st.player) << 40)) & ~(<uint64_t>31))
            | <uint64_t>n)


cdef inline void _team_enter(SolverState* st, int n, uint64_t key) noexcept nogil:
    ts_store64(&st.team.path[st.member][n], key)


cdef inline void _team_leave(SolverState* st, int n) noexcept nogil:
    ts_store64(&st.team.path[st.member][n], 0)


cdef inline bint _team_unwinds(SolverState* st, int n) noexcept nogil:
    """Whether another thread has answered a lead node on this thread's path above this
    one (then st.unwind_n is its tricks left). A word left from a node this thread has left
    meanwhile is dropped; one for a node it has entered again with the same question still
    holds (the answer is in the table)."""
    cdef uint64_t w = ts_load64(&st.team.unwind[st.member])
    cdef int u
    if not w or not ts_cas64(&st.team.unwind[st.member], w, 0):
        return 0
    u = <int>(w & 31)
    if u <= n or ts_load64(&st.team.path[st.member][u]) != w:
        return 0
    st.unwind_n = u
    return 1


cdef inline void _team_answered(SolverState* st, int n, uint64_t key) noexcept nogil:
    """This thread has answered (and stored) the lead node key: another thread inside the
    same node, for the same question, returns to it and takes the answer from the table."""
    cdef int m
    _team_leave(st, n)
    for m in range(TEAM_MEMBERS):
        if m != st.member and ts_load64(&st.team.path[m][n]) == key:
            ts_store64(&st.team.unwind[m], key)


cdef inline void _team_release(uint64_t* slot, uint64_t mine) noexcept nogil:
    """The move claimed is searched (unless another claim took the slot meanwhile)."""
    if ts_load64(slot) == mine:
        ts_store64(slot, 0)


cdef inline uint64_t _team_position(SolverState* st) noexcept nogil:
    """A hash of the loaded position with its rules (never 0)."""
    cdef uint64_t h = _position_hash(st)
    cdef int i
    for i in range(st.ntrick):
        h = _mix64(h + <uint64_t>(st.trick[i] + 1))
    return _mix64(h ^ <uint64_t>(st.contract * 8 + st.void_rule)) | 1


cdef class Team:
    """Solvers searching the same values at the same time on one shared table, one per
    thread: pass the same Team to each thread's :meth:`Solver.bounds` or
    :meth:`Solver.move_bounds` call, for the same position. A value one thread has found
    is not searched again by the others, and threads on the same value split its search;
    every thread answers with what the team proved. ``threads``: how many search together
    (a growing table grows once the team, not each thread, has filled it). A team keeps to
    the position of its first search (another raises ValueError): make a new Team, or
    :meth:`reset` it, for another position."""
    cdef TeamState* ts
    cdef readonly int threads

    def __cinit__(self, int threads=2):
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.threads = threads
        self.ts = <TeamState*>calloc(1, sizeof(TeamState))
        if self.ts == NULL:
            raise MemoryError("cannot allocate a team")
        self.reset()

    def __init__(self, int threads=2):
        pass

    def __dealloc__(self):
        free(self.ts)

    def reset(self):
        """Forget every value proved (for another position)."""
        cdef int i
        for i in range(TEAM_SLOTS):
            self.ts.lo[i] = 0
            self.ts.hi[i] = 255
        self.ts.gen = 0
        self.ts.position = 0
        memset(self.ts.busy, 0, sizeof(self.ts.busy))
        memset(self.ts.member, 0, sizeof(self.ts.member))
        memset(self.ts.path, 0, sizeof(self.ts.path))
        memset(self.ts.unwind, 0, sizeof(self.ts.unwind))
