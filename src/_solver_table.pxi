# The transposition table: allocation, hashing, keys on relative ranks, the exact masks
# of partition search, and storing results (probing is part of _search_lead).

# ---------------------------------------------------------------- transposition table

cdef extern from *:
    """
    /* The table is probed at random addresses: with 4 KB pages nearly every probe also
       misses the TLB. On Linux the table is aligned to 2 MB and marked for transparent
       huge pages (a hint: without them it works the same, only slower). */
    #if defined(__linux__)
    #include <sys/mman.h>
    static void *ts_table_alloc(size_t n) {
        void *p = NULL;
        if (posix_memalign(&p, (size_t)1 << 21, n) != 0) return NULL;
        #ifdef MADV_HUGEPAGE
        madvise(p, n, MADV_HUGEPAGE);
        #endif
        return p;
    }
    static void ts_table_free(void *p) { free(p); }
    #elif defined(_WIN32)
    #include <malloc.h>
    static void *ts_table_alloc(size_t n) { return _aligned_malloc(n, 64); }
    static void ts_table_free(void *p) { _aligned_free(p); }
    #else
    static void *ts_table_alloc(size_t n) {
        void *p = NULL;
        if (posix_memalign(&p, 64, n) != 0) return NULL;
        return p;
    }
    static void ts_table_free(void *p) { free(p); }
    #endif
    """
    void* ts_table_alloc(size_t n) noexcept nogil
    void ts_table_free(void* p) noexcept nogil


cdef Table* _table_new(uint64_t nbuckets) noexcept:
    """A table of nbuckets buckets with one user, or NULL if the memory cannot be had."""
    cdef Table* t = <Table*>calloc(1, sizeof(Table))
    if t == NULL:
        return NULL
    t.tt = <TTEntry*>ts_table_alloc(nbuckets * BUCKET * sizeof(TTEntry))
    t.heads = <uint32_t*>calloc(nbuckets, sizeof(uint32_t))
    if t.tt == NULL or t.heads == NULL:
        _table_release(t)
        return NULL
    # Entries are read only below their bucket's live count, so they need no zeroing;
    # it touches every page now, so that solves do not pay the first touch of each
    # page (docs/solver.md, Log: table).
    memset(t.tt, 0, nbuckets * BUCKET * sizeof(TTEntry))
    t.buckets = nbuckets
    t.epoch = 1
    t.users = 1
    return t


cdef uint64_t* _checks_new(uint64_t nbuckets) noexcept nogil:
    """Zeroed check words for a table of nbuckets buckets (on huge pages like the table:
    they are read at the same random addresses), or NULL."""
    cdef uint64_t* c = <uint64_t*>ts_table_alloc(nbuckets * BUCKET * sizeof(uint64_t))
    if c != NULL:
        memset(c, 0, nbuckets * BUCKET * sizeof(uint64_t))
    return c


cdef void _table_release(Table* t) noexcept:
    """One user fewer; the last frees the memory."""
    t.users -= 1
    if t.users > 0:
        return
    if t.tt != NULL:
        ts_table_free(t.tt)
    free(t.heads)
    ts_table_free(t.check)
    free(t)


cdef inline uint64_t _mix64(uint64_t x) noexcept nogil:
    x ^= x >> 31
    x *= <uint64_t>0x9E3779B97F4A7C15
    x ^= x >> 29
    x *= <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 32
    return x


cdef inline uint64_t _bucket_index(uint64_t h, uint64_t nbuckets) noexcept nogil:
    """h's high half scaled to 0..nbuckets-1 (any bucket count, so the table fills its memory)."""
    return ((h >> 32) * nbuckets) >> 32


cdef inline uint64_t _chain_bucket(SolverState* st, uint64_t h, int j) noexcept nogil:
    """The index of the j-th bucket of the chain of the coarse position hashed to h."""
    if j:
        h = _mix64(h + j)
    return _bucket_index(h, st.tt_buckets)


# A bucket's head: bits 0-7 how many entries are live (a prefix of the bucket), 16-31 the
# epoch of the table when the bucket was last written. While threads share the table a
# writer takes a place in a bucket by a compare-and-swap of its head and writes there with
# no lock: readers check what they use against the entry's check word (_checked), which the
# writer writes after the entry's three words, so that a half-written entry (or two writers'
# words mixed) is never used. Every entry of a table ever shared has one (SolverState.check).
cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline uint32_t ts_load_acquire(uint32_t *p) {
        uint32_t v = *(volatile uint32_t *)p; _ReadWriteBarrier(); return v; }
    static __inline void ts_store_release(uint32_t *p, uint32_t v) {
        _ReadWriteBarrier(); *(volatile uint32_t *)p = v; }
    static __inline int ts_cas32(uint32_t *p, uint32_t expect, uint32_t want) {
        return (uint32_t)_InterlockedCompareExchange((volatile long *)p, (long)want,
                                                     (long)expect) == expect; }
    static __inline int ts_cas64(uint64_t *p, uint64_t expect, uint64_t want) {
        return (uint64_t)_InterlockedCompareExchange64((volatile __int64 *)p, (__int64)want,
                                                       (__int64)expect) == expect; }
    #else
    static inline uint32_t ts_load_acquire(uint32_t *p) {
        return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void ts_store_release(uint32_t *p, uint32_t v) {
        __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int ts_cas32(uint32_t *p, uint32_t expect, uint32_t want) {
        return __atomic_compare_exchange_n(p, &expect, want, 0, __ATOMIC_ACQUIRE,
                                           __ATOMIC_RELAXED); }
    static inline int ts_cas64(uint64_t *p, uint64_t expect, uint64_t want) {
        return __atomic_compare_exchange_n(p, &expect, want, 0, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED); }
    #endif
    """
    uint32_t ts_load_acquire(uint32_t* p) noexcept nogil
    void ts_store_release(uint32_t* p, uint32_t v) noexcept nogil
    bint ts_cas32(uint32_t* p, uint32_t expect, uint32_t want) noexcept nogil
    bint ts_cas64(uint64_t* p, uint64_t expect, uint64_t want) noexcept nogil


cdef inline uint32_t _head(SolverState* st, uint64_t bucket) noexcept nogil:
    return ts_load_acquire(&st.heads[bucket])


cdef inline int _head_live(SolverState* st, uint32_t head) noexcept nogil:
    """How many entries a bucket with this head holds (0: another epoch's)."""
    if (head >> 16) != st.epoch:
        return 0
    return head & 0xFF


cdef inline int _live(SolverState* st, uint64_t bucket) noexcept nogil:
    """How many entries of a bucket are live (a prefix of it)."""
    return _head_live(st, _head(st, bucket))


cdef inline uint64_t _e_check(uint64_t key, uint64_t h0, uint64_t h1) noexcept nogil:
    """An entry's check word: a hash of its three words, the generation bits (set alone by
    _touch) left out; never 0, the check of a place never written."""
    return _mix64(key ^ _mix64(h0 ^ _mix64((h1 & ~(<uint64_t>3 << 62)) + 1))) | 1


cdef inline bint _checked(SolverState* st, TTEntry* e, uint64_t* key, uint64_t* h0,
                          uint64_t* h1) noexcept nogil:
    """The entry's words, read once each, and whether its check word says they are one
    writer's (a table with check words; one without has no other writer)."""
    if st.check == NULL:
        key[0] = e.key
        h0[0] = e.h0
        h1[0] = e.h1
        return 1
    key[0] = ts_load64(&e.key)
    h0[0] = ts_load64(&e.h0)
    h1[0] = ts_load64(&e.h1)
    return ts_load64(&st.check[e - st.tt]) == _e_check(key[0], h0[0], h1[0])


cdef inline void _put(SolverState* st, TTEntry* e, uint64_t key, uint64_t h0, uint64_t h1,
                      int code, int lo, int hi, int best, int work) noexcept nogil:
    """Write an entry, and its check word after its words where the table has them."""
    cdef uint64_t k = key | (<uint64_t>lo << 52) | (<uint64_t>hi << 57)
    cdef uint64_t a = h0 | (<uint64_t>code << 48)
    cdef uint64_t b = h1 | (<uint64_t>best << 48) | (<uint64_t>work << 56) | st.gen
    if st.check == NULL:
        e.key = k
        e.h0 = a
        e.h1 = b
        return
    ts_store64(&e.key, k)
    ts_store64(&e.h0, a)
    ts_store64(&e.h1, b)
    ts_store64(&st.check[e - st.tt], _e_check(k, a, b))


cdef inline uint64_t _boundary_key(SolverState* st, uint64_t inplay, uint64_t* h0r,
                                   uint64_t* h1r, uint64_t* top, uint64_t* ends) noexcept nogil:
    """Bits 0-43: suit lengths of every hand (hand 2's last suit is implied); 44-49: player,
    contract and void rule's low bit, 63 its high bit (st.meta, Solver._set_player); 50-51:
    leader; 52-59: the owner of each suit's top card (hashed, not kept in entries). Also, in the same pass over the suits (they share each suit's
    lane and counts): the hands of seats 0 and 1 with each card's rank replaced by its rank
    among the cards in play (h0r, h1r, suits one after another: see TTEntry); top, the
    relative-rank mask of each suit's top st.mink cards (all, if fewer), which every entry
    keeps exact; and ends, the bit above each suit in that layout (for _code_mask)."""
    cdef uint64_t key = st.meta | (<uint64_t>st.leader << 50)
    cdef uint64_t lane, a, b, ra, rb, lo_row, hi_row
    cdef uint64_t r0 = 0, r1 = 0, mask = 0
    cdef int s, n, c0, c1, owner, lo_bits, off = 0
    for s in range(4):
        lane = (inplay >> (16 * s)) & SUIT_BITS
        if not lane:
            key |= <uint64_t>3 << (52 + 2 * s)
            ends[s] = (<uint64_t>1) << off
            continue
        a = (st.hands[0] >> (16 * s)) & SUIT_BITS
        b = (st.hands[1] >> (16 * s)) & SUIT_BITS
        n = popcount(lane)
        c0 = popcount(a)
        c1 = popcount(b)
        key |= <uint64_t>c0 << (4 * s)
        key |= <uint64_t>c1 << (16 + 4 * s)
        if s < 3:
            key |= <uint64_t>(n - c0 - c1) << (32 + 4 * s)
        lo_row = (lane & 127) << 7
        hi_row = (lane >> 7) << 6
        lo_bits = popcount(lane & 127)
        ra = _pext13(a, lo_row, hi_row, lo_bits)
        rb = _pext13(b, lo_row, hi_row, lo_bits)
        # The suit's top card has relative rank n - 1.
        owner = 0 if (ra >> (n - 1)) & 1 else (1 if (rb >> (n - 1)) & 1 else 2)
        key |= <uint64_t>owner << (52 + 2 * s)
        r0 |= ra << off
        r1 |= rb << off
        mask |= _top_ranks(n, st.mink if n > st.mink else n) << off
        off += n
        ends[s] = (<uint64_t>1) << off
    h0r[0] = r0
    h1r[0] = r1
    top[0] = mask
    return key


cdef inline uint64_t _top_ranks(int n, int k) noexcept nogil:
    """The top k of a suit's n relative ranks, as a lane."""
    return (((<uint64_t>1) << k) - 1) << (n - k)


cdef inline uint64_t _exact_mask(uint64_t rel, uint64_t inplay, int mink,
                                 int* code) noexcept nogil:
    """Relative-rank mask of the cards an entry keeps exact, from a relevant-card set: per
    suit in play, its cards down to the lowest relevant one, and at least the top mink (or
    all, if fewer). code: their count per suit (see TTEntry)."""
    cdef uint64_t mask = 0, lane, r
    cdef int s, k, m, n, off = 0
    code[0] = 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        if not lane:
            continue
        n = popcount(lane)
        r = rel & lane
        m = mink if n > mink else n
        k = popcount(lane & ~_below(lowest_card(r))) if r else m
        if k < m:
            k = m
        mask |= _top_ranks(n, k) << off
        off += n
        code[0] |= k << (4 * s)
    return mask


cdef inline uint64_t _rel_of(uint64_t mask, uint64_t inplay) noexcept nogil:
    """The relevant-card set an entry stands for: the lowest exact card of each suit."""
    cdef uint64_t rel = 0, m, lane
    cdef int s, n, off = 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        n = popcount(lane)
        m = (mask >> off) & ((<uint64_t>1 << n) - 1)
        off += n
        if m:
            rel |= (<uint64_t>1) << nth_card(lane, lowest_card(m))
    return rel


cdef inline void _count_eviction(SolverState* st, TTEntry* e) noexcept nogil:
    """An entry about to be replaced: one of the current test's counts towards the table's
    growth (Solver's grow_mb), which stops the search once they reach st.grow_at. In a team
    a thread's test may be a generation behind another's (_team_gen): an entry of either
    counts."""
    if st.grow_at and (((st.gen >> 62) - (e.h1 >> 62)) & 3) <= (st.team != NULL):
        st.evicted += 1
        if st.evicted >= st.grow_at:
            st.abort = 5


cdef inline void _tt_store(SolverState* st, uint64_t* chain, int nchain,
                           TTEntry** found, int nfound, uint64_t key, uint64_t h0, uint64_t h1,
                           int code, int lo, int hi, int best, int work) noexcept nogil:
    """Store a result in the chain of buckets the probe scanned. The probe listed the
    entries matching the position (found): an entry for the same cards can only be among
    those (the positions searched meanwhile hold fewer cards, so they never share the
    key), which spares a scan. Entries may have been replaced meanwhile, so they are
    checked again. In a team another thread may have stored the same cards meanwhile, in
    any bucket of the chain: they are then there twice, which costs room, never a value
    (a probe uses any entry that decides), where scanning the chain again at every store
    cost a thread more (docs/solver.md, Log: threads)."""
    cdef TTEntry* b
    cdef int i, j, live
    if nfound <= FOUND_MAX:
        for j in range(nfound):
            if _tt_merge(st, found[j], key, h0, h1, code, lo, hi, best, work):
                return
    else:
        for j in range(nchain):
            b = st.tt + chain[j] * BUCKET
            live = _live(st, chain[j])
            for i in range(live):
                if _tt_merge(st, &b[i], key, h0, h1, code, lo, hi, best, work):
                    return
    # Not present: append to the last bucket the probe scanned (the live entries stay a
    # prefix of each bucket), else take the place of its entry that the latest searches
    # stored or used least recently and, among those, that cost least to compute. Work
    # alone kept the costly entries of earlier tests (other targets) that the current test
    # no longer reaches, while its own entries evicted one another: that matters in the
    # heavy no-tricks deals, which fill the table (docs/solver.md, Log: table).
    _put(st, _tt_place(st, chain[nchain - 1]), key, h0, h1, code, lo, hi, best, work)


cdef inline bint _tt_merge(SolverState* st, TTEntry* e, uint64_t key, uint64_t h0,
                           uint64_t h1, int code, int lo, int hi, int best,
                           int work) noexcept nogil:
    """If e holds these exact cards (and, in a table with check words, is one writer's),
    tighten it with the new result."""
    cdef uint64_t k, a, c
    if (e.key & CHECK) != key:
        return 0
    if not _checked(st, e, &k, &a, &c):
        return 0
    if (k & CHECK) != key or a != (h0 | (<uint64_t>code << 48)) or (c & HAND) != h1:
        return 0
    _put(st, e, key, h0, h1, code, max(lo, (k >> 52) & 31), min(hi, (k >> 57) & 31),
         <int>((c >> 48) & 255) if best == NO_MOVE else best, max(work, <int>((c >> 56) & 63)))
    return 1


cdef inline TTEntry* _tt_place(SolverState* st, uint64_t bucket) noexcept nogil:
    """The place for a new entry in a bucket: its first free one, else _victim's. Where
    threads share the table the place is taken by a compare-and-swap of the head, so two
    writers never append to the same one (they may still replace the same victim: the
    entry written is then lost, never wrong, see _checked)."""
    cdef TTEntry* b = st.tt + bucket * BUCKET
    cdef TTEntry* e
    cdef uint32_t head, want
    cdef int n
    while True:
        head = _head(st, bucket)
        n = _head_live(st, head)
        if n >= BUCKET:
            e = _victim(st, b)
            _count_eviction(st, e)
            return e
        want = (<uint32_t>st.epoch << 16) | <uint32_t>(n + 1)
        if st.check == NULL:
            st.heads[bucket] = want
            return &b[n]
        if ts_cas32(&st.heads[bucket], head, want):
            return &b[n]


cdef inline TTEntry* _victim(SolverState* st, TTEntry* b) noexcept nogil:
    """The entry of a full bucket to replace. h1 - age (mod 2^64) holds in its top bits 3
    for the current generation, 2 for the one before, and so on; the work follows, then
    the best move (NO_MOVE, the largest, keeps the entries where every move was tried a
    little longer)."""
    cdef uint64_t age = st.gen + ((<uint64_t>1) << 62)
    cdef TTEntry* e = &b[0]
    cdef int i
    for i in range(1, BUCKET):
        if b[i].h1 - age < e.h1 - age:
            e = &b[i]
    return e


cdef inline void _touch(SolverState* st, TTEntry* e) noexcept nogil:
    """Mark an entry as used by the current search; in a shared table only if no other
    thread rewrote it meanwhile (its gen bits decide only replacement)."""
    cdef uint64_t old
    if st.shared:
        # Not written where it is current already: the threads of a team probe the same
        # entries, and a write makes the other core's copy of the line stale.
        old = e.h1
        if old & (<uint64_t>3 << 62) != st.gen:
            ts_cas64(&e.h1, old, (old & ~(<uint64_t>3 << 62)) | st.gen)
    else:
        _e_touch(e, st.gen)


cdef uint64_t _entry_hash(TTEntry* e) noexcept nogil:
    """The hash of the coarse position an entry was stored for, as the probe computes it
    (_search_lead), rebuilt from the entry: its key holds the suit lengths and the contract
    (which gives mink), and its exact cards, always the top mink of each suit, give the
    owners of each suit's top card."""
    cdef uint64_t key = e.key & CHECK
    cdef uint64_t h0 = e.h0 & HAND
    cdef uint64_t h1 = e.h1 & HAND
    cdef uint64_t top = 0
    cdef int s, n, owner, hand = 0, last = 0, off = 0
    cdef int mink = 3 if ((key >> 46) & 7) == NO_TRICKS else 1
    for s in range(4):
        hand += (key >> (4 * s)) & 15
    for s in range(4):
        n = ((key >> (4 * s)) & 15) + ((key >> (16 + 4 * s)) & 15)
        if s < 3:
            n += (key >> (32 + 4 * s)) & 15
            last += (key >> (32 + 4 * s)) & 15
        else:
            n += hand - last
        if n == 0:
            key |= <uint64_t>3 << (52 + 2 * s)
            continue
        owner = 0 if (h0 >> (off + n - 1)) & 1 else (1 if (h1 >> (off + n - 1)) & 1 else 2)
        key |= <uint64_t>owner << (52 + 2 * s)
        top |= _top_ranks(n, mink if n > mink else n) << off
        off += n
    return _mix64(key ^ _mix64((h0 & top) * 3 + (h1 & top)))


cdef int _tt_grow(SolverState* st, uint64_t nb) noexcept nogil:
    """Move the table into one of nb buckets, keeping its entries: each goes to the first
    bucket with room in its position's first chain, which the probe always scans (an entry
    that finds no room is dropped, which costs a search, never a wrong value). 0 if the
    memory could not be had: the table stays as it was. Only for a table st alone uses."""
    cdef uint64_t ob, bi, h
    cdef TTEntry* old = st.tt
    cdef uint32_t* old_heads = st.heads
    cdef uint64_t old_n = st.tt_buckets
    cdef uint64_t* old_check = st.check
    cdef TTEntry* fresh
    cdef uint32_t* heads
    cdef uint64_t* check = NULL
    cdef int i, j, live, room
    fresh = <TTEntry*>ts_table_alloc(nb * BUCKET * sizeof(TTEntry))
    heads = <uint32_t*>calloc(nb, sizeof(uint32_t))
    if old_check != NULL:
        check = _checks_new(nb)
    if fresh == NULL or heads == NULL or (old_check != NULL and check == NULL):
        if fresh != NULL:
            ts_table_free(fresh)
        free(heads)
        ts_table_free(check)
        return 0
    memset(fresh, 0, nb * BUCKET * sizeof(TTEntry))
    st.tt = st.table.tt = fresh
    st.heads = st.table.heads = heads
    st.check = st.table.check = check
    st.tt_buckets = st.table.buckets = nb
    for ob in range(old_n):
        live = old_heads[ob] & 0xFF if (old_heads[ob] >> 16) == st.epoch else 0
        for i in range(live):
            h = _entry_hash(&old[ob * BUCKET + i])
            for j in range(CHAIN):
                bi = _chain_bucket(st, h, j)
                room = _live(st, bi)
                if room < BUCKET:
                    st.tt[bi * BUCKET + room] = old[ob * BUCKET + i]
                    if check != NULL:  # a half-written entry stays one
                        check[bi * BUCKET + room] = old_check[ob * BUCKET + i]
                    st.heads[bi] = (<uint32_t>st.epoch << 16) | <uint32_t>(room + 1)
                    break
    ts_table_free(old)
    free(old_heads)
    ts_table_free(old_check)
    return 1
