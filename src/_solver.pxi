# The double-dummy solver; included into _core358.pyx so it shares the inline card helpers.
#
# Game: one player P against the other two playing together (paranoid). The solver computes
# f(position) = P's tricks from now on (the trick in progress counts) under minimax, where P
# maximises f in trump and no-trump contracts and minimises it in no-tricks (the other two
# always do the opposite). Everything below is a null-window test "f >= target?" driven by
# an iterating target (trump and no-trump: one step at a time from the value of a greedy
# playout, _playout, less one in trump contracts; no-tricks climbs from 1), answered with a
# bound on f that the table keeps (fail-soft, see _search). Techniques:
# - transposition table at trick boundaries with lower and upper bounds, kept between calls,
#   keyed on relative ranks with partition search (see TTEntry): one entry covers every
#   position whose low cards differ only in which of them each hand holds; 128-entry
#   buckets (all entries of one coarse position share a bucket, and once it is full of
#   them a chain of up to CHAIN buckets, and a second chain for the entries exact in the
#   next card of each suit too), fetched ahead while the quick bounds run, and
#   scanned newest first from the last live entry; Solver.clear() bumps an epoch instead
#   of zeroing the memory;
# - equivalent cards: one move per run of touching cards in a hand (cards in the current
#   trick still separate runs); the forced-trump rule comes from legal_mask; and once a
#   move fails to cut, the mover's other cards of its suit below the suit's lowest
#   relevant card are answered too (_small_twins);
# - quick bounds at trick starts (_quick_bounds): P's trumps minus those the opponents'
#   higher trumps can beat one each, mirrored for each opponent's trumps (_beaten),
#   cashable top cards of the leader (side suits in full once its top trumps draw the
#   others', and the long cards of a suit whose top cards draw it: _sure_on_lead), of the
#   partner reached through an entry (after the leader's own where P cannot ruff); the
#   top cards a seat keeps to the end while the other side leads (in no-trump or against
#   no trumps: _keeps_tops); in no-tricks (_misere_bounds) tricks the pair can force on P
#   (P on lead with no way to lose the lead, also after a forcing lead by the pair), a
#   trick P surely ducks, and a P that can play under every lead of the pair in every
#   suit (_ducks_all: no more tricks);
# - move ordering: table move (without an entry for the cards, that of the newest entry of
#   the same coarse position), then for leads weights fitted to which leads cut in logged
#   searches (in trump contracts less the other side's answers to the lead, which keeps
#   proofs small), with hand-written suit-situation rules and a cutoff history ordering
#   the ties; when following, cheapest-winner / lowest-card rules (second hand: a winner only
#   if the third hand cannot beat it), in no-tricks fitted weights first, in no-trump the
#   pair's killer card (per suit led) before them;
# - the last trick scored directly.
#
# The search runs without the GIL; every check_every nodes it takes the GIL to call
# PyErr_CheckSignals, to read the clock against a deadline and to report progress, and
# on a signal, the deadline or the node limit unwinds (st.abort). A stopped search stores
# nothing it did not prove, and _solve_value keeps the bounds its finished tests proved,
# so a stopped solve answers with sound bounds and the table stays valid.

from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t
from libc.string cimport memset
from libc.stdlib cimport calloc, free
from cpython.exc cimport PyErr_Occurred
from cpython.object cimport PyObject
from cpython.ref cimport Py_XDECREF
from time import monotonic as _monotonic

cdef extern from "Python.h":
    # Declared without an exception spec: a failure leaves the exception set (for the
    # wrapper to re-raise) instead of having Cython report it inside the nogil search.
    int _py_check_signals "PyErr_CheckSignals"() noexcept
    # The same for the progress callback: NULL leaves its exception set.
    PyObject* _py_call4 "PyObject_CallFunction"(PyObject* f, const char* fmt, int64_t a,
                                                int b, int c, int d) noexcept

cdef extern from *:
    """
    /* A hint to load a cache line ahead of its use. */
    #if defined(__GNUC__) || defined(__clang__)
    #define ts_prefetch(p) __builtin_prefetch((const void *)(p))
    #else
    #define ts_prefetch(p) ((void)0)
    #endif
    """
    void ts_prefetch(const void* p) noexcept nogil

cdef enum:
    FIRST_BUDGET = 1 << 20   # nodes for the first test of a trump solve (_solve_value)
    BUCKET = 128             # entries per table bucket
    CHAIN = 16               # most buckets a coarse position may fill
    FOUND_MAX = 8            # matching entries a probe lists for the store that follows
    NO_MOVE = 255


# Partition search. A search result at a trick boundary comes with a set R of "relevant"
# cards (a bitboard): the result holds for every position with the same hand shapes (suit
# lengths of each hand), the same leader, and, in each suit, the same owners of the cards
# ranked at or above the lowest relevant card of that suit; the lower cards of the suit
# ("small cards") may be spread differently. R collects the cards that won a trick by rank
# (beating another card of their suit), the cards that made a quick-trick bound hold, and,
# for a card that stood for a run of equivalent cards and mattered by rank, the run's
# lowest card. A table entry stores which top cards of each suit are exact (the top k_s,
# at least the top one so that the top owners can go into the hash), and the owners of
# those cards as relative-rank hands of seats 0 and 1 (seat 2 holds the rest).
#
# Relative-rank sets (h0, h1 and the masks) hold the suits one after another, each in as
# many bits as it has cards in play (48 at most; the key fixes the suit lengths, so the
# layout is the same for every position that shares the key). An entry keeps the exact
# cards as their count per suit, k_s (_code_mask), and leaves out the key's top owners,
# which its exact cards fix; its bounds, best move and work fill the bits left over: 24
# bytes an entry instead of 40. The heavy no-tricks deals are bound by the table's room
# (seed 10 took 2.2x fewer nodes with 128 MB than with 64).
cdef struct TTEntry:
    uint64_t key            # bits 0-51: the position's key without the top owners (CHECK,
                            # see _boundary_key); 52-57: lower bound on f; 58-63: upper
    uint64_t h0             # bits 0-47: relative-rank hand of seat 0, masked to the exact
                            # cards; 48-63: k_s in bits 48 + 4s (the exact cards of suit s
                            # are its top k_s)
    uint64_t h1             # bits 0-47: same for seat 1; 48-55: the leader's best move,
                            # suit * 16 + cards in play above it; 56-61: log2 of the nodes
                            # spent on the entry; 62-63: the generation of the search that
                            # last stored or used it (both decide replacement, _tt_store)


cdef extern from *:
    """
    #define TS_CHECK ((((uint64_t)1) << 52) - 1)
    #define TS_HAND ((((uint64_t)1) << 48) - 1)
    """
    const uint64_t CHECK "TS_CHECK"     # the key bits an entry keeps
    const uint64_t HAND "TS_HAND"       # the relative-rank bits of h0 and h1


cdef inline int _e_lo(const TTEntry* e) noexcept nogil:
    return (e.key >> 52) & 63


cdef inline int _e_hi(const TTEntry* e) noexcept nogil:
    return e.key >> 58


cdef inline int _e_best(const TTEntry* e) noexcept nogil:
    return (e.h1 >> 48) & 255


cdef inline int _e_work(const TTEntry* e) noexcept nogil:
    return (e.h1 >> 56) & 63


cdef inline bint _e_same(const TTEntry* e, uint64_t key, uint64_t h0, uint64_t h1,
                         int code) noexcept nogil:
    """The entry is for these exact cards."""
    return ((e.key & CHECK) == key and e.h0 == (h0 | (<uint64_t>code << 48))
            and (e.h1 & HAND) == h1)


cdef inline void _e_touch(TTEntry* e, uint64_t gen) noexcept nogil:
    """Mark an entry as used by the current search (generation gen, see SolverState)."""
    e.h1 = (e.h1 & ~(<uint64_t>3 << 62)) | gen


cdef inline void _e_set(TTEntry* e, uint64_t key, uint64_t h0, uint64_t h1, int code,
                        int lo, int hi, int best, int work, uint64_t gen) noexcept nogil:
    e.key = key | (<uint64_t>lo << 52) | (<uint64_t>hi << 58)
    e.h0 = h0 | (<uint64_t>code << 48)
    e.h1 = h1 | (<uint64_t>best << 48) | (<uint64_t>work << 56) | gen


cdef inline uint64_t _code_mask(int code, const uint64_t* ends, uint64_t total) noexcept nogil:
    """The relative-rank mask of an entry's exact cards from its k_s (code). ends[s] is the
    bit just above suit s in the probe's layout and total their sum: the top k_s ranks of
    suit s are ends[s] - (ends[s] >> k_s)."""
    return (total - (ends[0] >> (code & 15)) - (ends[1] >> ((code >> 4) & 15))
            - (ends[2] >> ((code >> 8) & 15)) - (ends[3] >> (code >> 12)))


cdef struct SolverState:
    uint64_t hands[3]
    int trick[3]
    int ntrick
    int leader
    int tricks_left         # tricks still to be completed, the one in progress included
    int trump               # trump suit or -1
    int contract
    int void_rule
    int player
    int misere              # 1 in no-tricks: P minimises f
    int mink                # top cards per suit always exact in table entries (and hashed):
                            # 1 measured best in trump and no-trump; in no-tricks the
                            # entries of one coarse position are many more and overflow
                            # their bucket unless spread by the top cards. The top three
                            # rather than two: the ten slowest of the 200 benchmark deals
                            # took 1.0-1.37x fewer nodes (seed 81 641M -> 468M), all 200
                            # 1.06x fewer in total; per deal 1.02x more nodes and, side
                            # by side (bench/ab.py, seeds 0-29), 1.01-1.03x more time,
                            # 1.09x less in total
    uint64_t meta           # key bits: player, contract, void rule (leader added per node)
    int64_t nodes
    int hist[2][64]         # cutoff history per side (0: P, 1: the pair) and card
    int killer[17][3]       # per tricks left and leader: the last lead that cut after the
                            # first lead of the order failed (-1: none)
    int8_t follow_killer[17][2][3][4]   # no-trump: per tricks left, cards in the trick
                            # (1 or 2), pair seat and suit led, the last card that cut
                            # after the order's first failed (-1: none)
    int64_t check_at        # the next check (signals, clock, node limit, progress)
    int64_t check_every     # nodes between checks (Solver's check_every)
    int64_t node_limit      # stop (abort 2) once nodes reach this; 0: no limit
    double deadline         # stop (abort 3) once time.monotonic() reaches this; 0: none
    int abort               # 1: a signal (Ctrl-C) or an error in progress, 2: the node
                            # limit, 3: the deadline (4: move_bounds skips a card)
    int cur_lo              # f >= cur_lo and f <= cur_hi: what _solve_value's finished
    int cur_hi              # tests proved (its answer when stopped)
    int cur_card            # the card being valued (move_bounds), -1 for a player's value
    PyObject* progress      # called as progress(nodes, card, lo, hi) at each check; or NULL
    TTEntry* tt
    uint32_t* heads         # per bucket: the table's epoch when it was last written (an
                            # older bucket counts as empty) << 16 | how many entries are
                            # live. Apart from the entries (85 KB for 64 MB, so they stay
                            # in cache), they tell the probe where its scan starts, and
                            # that line is fetched ahead while the quick bounds run
    uint64_t tt_buckets
    uint64_t gen            # the generation of the current search (_solve_value's test),
                            # 0-3, << 62 as in TTEntry.h1
    uint16_t epoch          # bumped by Solver.clear (1..65535; the table is zeroed on wrap)


# ---------------------------------------------------------------- relative ranks

# pext (parallel bit extract) of a 13-bit lane in two table lookups: the low 7 bits and
# the high 6 bits of the lane.
cdef uint8_t PEXT7[128 * 128]
cdef uint8_t PEXT6[64 * 64]


cdef void _init_pext_tables() noexcept nogil:
    cdef int m, x, b, out, k
    for m in range(128):
        for x in range(128):
            out = 0
            k = 0
            for b in range(7):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT7[m * 128 + x] = out
    for m in range(64):
        for x in range(64):
            out = 0
            k = 0
            for b in range(6):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT6[m * 64 + x] = out


_init_pext_tables()


cdef inline uint64_t _pext13(uint64_t x, uint64_t lo_row, uint64_t hi_row,
                              int lo_bits) noexcept nogil:
    """The bits of x (a 13-bit lane) selected by a mask m, packed to the bottom; the mask
    comes as its table rows (m & 127) << 7 and (m >> 7) << 6 and popcount(m & 127), which
    the callers compute once for several x."""
    return PEXT7[lo_row | (x & 127)] | (<uint64_t>PEXT6[hi_row | (x >> 7)] << lo_bits)


cdef inline uint64_t _above(int card) noexcept nogil:
    """All bits above `card` (any suit: mask with a suit lane)."""
    return ~((((<uint64_t>1) << card) << 1) - 1)


cdef inline uint64_t _below(int card) noexcept nogil:
    return ((<uint64_t>1) << card) - 1


# ---------------------------------------------------------------- equivalent cards

cdef inline uint64_t _run_tops(uint64_t h, uint64_t gaps) noexcept nogil:
    """Cards of h that are the highest of their run: a run is a set of cards of one suit in
    h with only gaps (cards out of play) between them. Occluded fill of h downward through
    the gaps; a card is not a top if the position above it is reached."""
    cdef uint64_t f = h
    cdef uint64_t g = gaps
    f |= g & (f >> 1)
    g &= g >> 1
    f |= g & (f >> 2)
    g &= g >> 2
    f |= g & (f >> 4)
    g &= g >> 4
    f |= g & (f >> 8)
    return h & ~(f >> 1)


cdef inline uint64_t _run_bottoms(uint64_t h, uint64_t gaps) noexcept nogil:
    """Cards of h that are the lowest of their run (mirror of _run_tops)."""
    cdef uint64_t f = h
    cdef uint64_t g = gaps
    f |= g & (f << 1)
    g &= g << 1
    f |= g & (f << 2)
    g &= g << 2
    f |= g & (f << 4)
    g &= g << 4
    f |= g & (f << 8)
    return h & ~(f << 1)


cdef inline uint64_t _run_adjust(uint64_t rel, int card, uint64_t hand,
                                 uint64_t gaps) noexcept nogil:
    """A run's top card played and found relevant: its equivalents (the rest of the run) were
    not searched, so the whole run must stay exact: add the run's lowest card."""
    cdef uint64_t bottoms
    if (rel >> card) & 1:
        bottoms = _run_bottoms(hand | ((<uint64_t>1) << card), gaps) & _below(card + 1)
        rel |= (<uint64_t>1) << highest_card(bottoms)
    return rel


cdef inline uint64_t _small_twins(uint64_t rel, int card, uint64_t hand) noexcept nogil:
    """Cards of `hand` whose result is already known once `card` was searched and found
    not to cut, with relevant cards rel: the cards of its suit that lie, like `card`,
    below the suit's lowest relevant card. Playing one of them instead of `card` only
    moves small cards between the hand and the trick, and rel says that the result holds
    however the small cards are placed."""
    cdef uint64_t lane = suit_mask(card_suit(card))
    cdef uint64_t r = rel & lane
    if not r:
        return hand & lane
    if card >= lowest_card(r):
        return 0
    return hand & lane & _below(lowest_card(r))


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


cdef inline int _live(SolverState* st, uint64_t bucket) noexcept nogil:
    """How many entries of a bucket are live (a prefix of it)."""
    cdef uint32_t head = st.heads[bucket]
    return head & 0xFFFF if (head >> 16) == st.epoch else 0


cdef inline uint64_t _boundary_key(SolverState* st, uint64_t inplay, uint64_t* h0r,
                                   uint64_t* h1r, uint64_t* top, uint64_t* ends) noexcept nogil:
    """Bits 0-43: suit lengths of every hand (hand 2's last suit is implied); 44-49: player,
    contract and void rule; 50-51: leader; 52-59: the owner of each suit's top card (hashed,
    not kept in entries). Also, in the same pass over the suits (they share each suit's
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


# ---------------------------------------------------------------- search helpers

cdef inline int _check_signals(SolverState* st) noexcept nogil:
    cdef PyObject* r
    st.check_at += st.check_every
    with gil:
        if _py_check_signals() != 0:
            st.abort = 1
        elif st.deadline > 0 and _monotonic() >= st.deadline:
            st.abort = 3
        elif st.progress != NULL:
            r = _py_call4(st.progress, "Liii", st.nodes, st.cur_card, st.cur_lo, st.cur_hi)
            if r == NULL:
                st.abort = 1
            Py_XDECREF(r)
    if not st.abort and st.node_limit and st.nodes >= st.node_limit:
        st.abort = 2
    return st.abort


cdef inline int _seat(int x) noexcept nogil:
    """x % 3 for 0 <= x < 6 (a seat plus an offset): a compare, not a division."""
    return x - 3 if x >= 3 else x


cdef inline int _ilog2(int64_t x) noexcept nogil:
    cdef int r = 0
    while x > 1:
        x >>= 1
        r += 1
    return r


cdef inline int _order_value(int card, int trump) noexcept nogil:
    """Cost of giving a card away: rank, trumps dearer than any side card."""
    if card_suit(card) == trump:
        return card_rank(card) + 16
    return card_rank(card)


cdef inline uint64_t _rank_winner(const int* cards, int w) noexcept nogil:
    """The winning card of a complete trick as a relevant card if it beat another card of
    its suit (its rank decided the trick), else nothing."""
    cdef int i, s = card_suit(cards[w])
    for i in range(3):
        if i != w and card_suit(cards[i]) == s:
            return (<uint64_t>1) << cards[w]
    return 0


cdef inline int _top_seq(uint64_t mine, uint64_t lane, uint64_t* low) noexcept nogil:
    """Number of top cards of a suit (in play: lane) held in `mine`; low: the lowest of them."""
    cdef uint64_t others = lane & ~mine
    cdef uint64_t tops
    if others:
        tops = mine & _above(highest_card(others))
    else:
        tops = mine & lane
    if tops:
        low[0] = tops & (~tops + 1)
        return popcount(tops)
    return 0


cdef inline int _beaten(uint64_t mine, uint64_t theirs) noexcept nogil:
    """How many cards of `mine` can each be beaten by a different higher card of `theirs`
    (one suit): matched from the top, each card of `mine` takes any unused higher one, so
    a card is beaten when more of `theirs` lie above it than were used above it. The loop
    visits only the cards of `mine`."""
    cdef int card, count = 0
    while mine:
        card = highest_card(mine)
        mine ^= (<uint64_t>1) << card
        if popcount(theirs & _above(card)) > count:
            count += 1
    return count


cdef inline bint _can_ruff(SolverState* st, int o, int s) noexcept nogil:
    """Seat o can ruff a lead of suit s: s is a side suit of a trump contract, o holds none
    of it and holds a trump."""
    return (st.trump >= 0 and s != st.trump and not (st.hands[o] & suit_mask(s))
            and (st.hands[o] & suit_mask(st.trump)) != 0)


cdef inline int _longest_other(SolverState* st, int X, uint64_t lane) noexcept nogil:
    """The most cards of lane that one seat other than X holds."""
    cdef int o, k, most = 0
    for o in range(3):
        if o != X:
            k = popcount(st.hands[o] & lane)
            if k > most:
                most = k
    return most


cdef int _sure_on_lead(SolverState* st, int X, uint64_t inplay, uint64_t* rel) noexcept nogil:
    """Tricks seat X on lead takes for sure by cashing top cards (trumps first, side suits
    only as long as every other seat holding trumps still follows, unless X's top trumps
    draw all the others' trumps first). Where X's top cards of a suit are at least as many
    as any other seat's cards of it, they draw that suit and X's lower cards of it win
    too, in a side suit once no other seat can ruff (1.06-1.20x fewer nodes per deal in
    the five trump and no-trump contracts, seeds 0-59 and held-out 100-159). The lowest
    top card of each suit counted goes into rel: with the hand shapes it fixes all of
    that."""
    cdef int s, c, limit, o, count = 0, drawn = 0
    cdef uint64_t lane, low, mine
    cdef int trump = st.trump
    if trump >= 0:
        lane = inplay & suit_mask(trump)
        if st.hands[X] & lane:
            drawn = _top_seq(st.hands[X] & lane, lane, &low) >= _longest_other(st, X, lane)
        else:
            drawn = lane == 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        mine = st.hands[X] & lane
        if not mine:
            continue
        c = _top_seq(mine, lane, &low)
        if c == 0:
            continue
        if trump < 0 or s == trump or drawn:
            if c >= _longest_other(st, X, lane):
                c = popcount(mine)
        else:
            limit = 99
            for o in range(3):
                if o != X and st.hands[o] & suit_mask(trump):
                    limit = min(limit, popcount(st.hands[o] & lane))
            if limit < c:
                c = limit
                if c == 0:
                    continue
                low = (<uint64_t>1) << nth_card(mine & lane, popcount(mine & lane) - c)
        count += c
        rel[0] |= low
    return count


cdef inline int _keeps_tops(SolverState* st, uint64_t inplay, int X, int a,
                            int b, uint64_t* rel, bint seqs) noexcept nogil:
    """Seats a and b (a == b: one seat) leading every trick until X's side wins one, in
    no-trump or with a and b out of trumps: X's side wins a trick for each suit whose
    top card X holds and for each trump of X, if X can keep those cards to the end; 0 if
    this argument gives nothing. (With X's partner in the fourth seat, only the first
    trick is sure: the partner's trumps may fall on X's, and X may not get the lead.)

    X discards only when void in the suit led (holding trumps it ruffs instead, and
    wins). A suit t where X lacks the top is led at most (a's or b's longer length in t)
    times, as every holder follows each lead, so it forces at most that minus X's length
    discards. X discards its excess cards of such suits (which keeps it following) and
    the cards below the top in its top suits. If those cover the forced discards, X never
    discards a counted card, so each is played to a lead of its own suit or as a ruff,
    winning, or cashed on X's lead after its first win; if not, each discard beyond them
    costs one counted card at most. And X holding a trump never discards before its first
    win: it ruffs.

    That much depends on the suit lengths and on which suits' top card X holds: the top
    card of each side suit goes into rel. Every table entry keeps the top cards exact
    anyway, but the caller's position may hold a higher card of the suit (led to this
    trick), and its search must not take the lower cards of that suit for equivalent
    (_small_twins) when one of them would have left another seat with the top.

    With seqs, the spare cards left over also keep the cards of X's top sequences below
    the top card: cashed after the top card, each wins too; so do X's lower cards of a
    suit where the sequence is at least as long as a's and b's cards of it, which it draws
    (no-trump 1.02-1.03x fewer nodes per deal). The lowest card kept of each such sequence
    goes into rel (for the lower cards, the sequence's lowest: with the hand shapes it
    fixes the rest)."""
    cdef int s, j, k = 0, forced = 0, spare = 0, xn, qn, bn, trumps = 0
    cdef uint64_t lane, mine, low, tops = 0
    cdef int seq[4]
    if st.trump >= 0 and (st.hands[a] | st.hands[b]) & suit_mask(st.trump):
        return 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        if not lane:
            continue
        mine = st.hands[X] & lane
        xn = popcount(mine)
        if s == st.trump:
            k += xn
            trumps = xn
            continue
        tops |= (<uint64_t>1) << highest_card(lane)
        seq[s] = 0
        if mine and highest_card(mine) == highest_card(lane):
            k += 1
            spare += xn - 1
            if seqs:
                seq[s] = _top_seq(mine, lane, &low)
            continue
        qn = popcount(st.hands[a] & lane)
        bn = popcount(st.hands[b] & lane)
        if bn > qn:
            qn = bn
        if qn > xn:
            forced += qn - xn
        else:
            spare += xn - qn
    if trumps:
        # It ruffs instead of discarding: no discard is forced, every spare card stays.
        forced = 0
        spare = 99
    if forced > spare:
        k -= forced - spare
        spare = forced
    if k <= 0:
        return 0
    rel[0] |= tops
    if seqs:
        spare -= forced
        for s in range(4):
            if spare == 0:
                break
            if s == st.trump or not (inplay & suit_mask(s)):
                continue
            lane = inplay & suit_mask(s)
            mine = st.hands[X] & lane
            j = seq[s] - 1
            if seq[s] and seq[s] >= popcount(st.hands[a] & lane) and seq[s] >= popcount(st.hands[b] & lane):
                j = popcount(mine) - 1
            if j <= 0:
                continue
            if j > spare:
                j = spare
            spare -= j
            k += j
            rel[0] |= (<uint64_t>1) << nth_card(mine, popcount(mine) - min(j + 1, seq[s]))
    return k


cdef void _quick_bounds(SolverState* st, uint64_t inplay, int* lo, int* hi,
                        uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """Sure bounds on f at a trick boundary, each with the cards that make it hold."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int s, o, c, c1, c2, cl
    cdef uint64_t lane, low, r, pl, lane_o, tmp, rl
    cdef int trump = st.trump
    lo[0] = 0
    hi[0] = n
    rlo[0] = 0
    rhi[0] = 0
    if not st.misere:
        if trump >= 0:
            lane = inplay & suit_mask(trump)
            pl = st.hands[P] & lane
            # P's top trumps each take a trick, whoever leads.
            c = _top_seq(pl, lane, &low)
            if c:
                lo[0] = c
                rlo[0] = low
            # Every trump is played by the end, and one of P's loses only to a higher trump
            # of an opponent, a different one each time: P takes at least its trumps minus
            # those the opponents' higher trumps can be matched against.
            if pl:
                c = popcount(pl) - _beaten(pl, lane & ~pl)
                if c > lo[0]:
                    lo[0] = c
                    rlo[0] = pl & (~pl + 1)
            # Mirrored for each opponent: its trumps take tricks for the pair except those
            # P's higher trumps beat (the top ones alone need fewer exact cards).
            c1 = 0
            r = 0
            for o in range(3):
                if o == P:
                    continue
                lane_o = st.hands[o] & lane
                if not lane_o:
                    continue
                tmp = lane_o & _above(highest_card(pl)) if pl else lane_o
                c2 = popcount(tmp)
                if c2 > c1:
                    c1 = c2
                    r = (<uint64_t>1) << highest_card(pl) if pl else 0
                c2 = popcount(lane_o) - _beaten(lane_o, pl)
                if c2 > c1:
                    c1 = c2
                    r = lane_o & (~lane_o + 1)
            if c1:
                hi[0] = n - c1
                rhi[0] = r
        if L == P:
            r = 0
            c = _sure_on_lead(st, P, inplay, &r)
            if c > lo[0]:
                lo[0] = c
                rlo[0] = r
            # An opponent that keeps a top card takes a trick.
            r = 0
            if hi[0] == n and (_keeps_tops(st, inplay, _seat(P + 1), P, P, &r, 0)
                               or _keeps_tops(st, inplay, _seat(P + 2), P, P, &r, 0)):
                hi[0] = n - 1
                rhi[0] = r
        else:
            r = 0
            c = _keeps_tops(st, inplay, P, L, 3 - L - P, &r, 1)
            if c > lo[0]:
                lo[0] = c
                rlo[0] = r
            rl = 0
            cl = _sure_on_lead(st, L, inplay, &rl)
            if n - cl < hi[0]:
                hi[0] = n - cl
                rhi[0] = rl
            # Or the leader crosses to the partner's top card of a suit it holds (P
            # following or unable to ruff) and the partner cashes its own sure tricks.
            # Where P holds no trump the leader can cash its own first: P never ruffs,
            # the partner follows suit to them (their ruffs are ruled out as in
            # _sure_on_lead) or discards cards it does not count, if it has enough; the
            # partner's tops stay tops. 1.11x fewer nodes per deal in no-trump, 1.03-1.04x
            # in trump contracts (seeds 0-59).
            o = 3 - L - P
            for s in range(4):
                lane = inplay & suit_mask(s)
                if not (st.hands[L] & lane) or not (st.hands[o] & lane):
                    continue
                if _can_ruff(st, P, s):
                    continue
                c = _top_seq(st.hands[o] & lane, lane, &low)
                if c == 0:
                    continue
                r = (<uint64_t>1) << highest_card(st.hands[o] & lane)
                c = _sure_on_lead(st, o, inplay, &r)
                if (trump < 0 or not (st.hands[P] & suit_mask(trump))) and popcount(st.hands[o]) - c >= cl:
                    c += cl
                    r |= rl
                if n - c < hi[0]:
                    hi[0] = n - c
                    rhi[0] = r
                break
    else:
        _misere_bounds(st, inplay, lo, hi, rlo, rhi)


cdef inline int _ducks_all(uint64_t mine, uint64_t theirs) noexcept nogil:
    """No-tricks, one suit: can P (mine) play under the pair (theirs) every time the pair
    leads it? Yes if each i-th lowest card of P is below the i-th lowest of the pair, as far
    as both reach. P answers a lead with its highest card below the card led; that keeps
    the condition (the pair's cards that leave only raise its i-th lowest), and so do P's
    discards if it sheds the highest card of a suit."""
    cdef int i = 0, q
    cdef int a = popcount(mine)
    while theirs and i < a:
        q = lowest_card(theirs)
        theirs &= theirs - 1
        i += 1
        if popcount(mine & _below(q)) < i:
            return 0
    return 1


cdef inline void _misere_bounds(SolverState* st, uint64_t inplay, int* lo, int* hi,
                                uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """No-tricks bounds at a trick boundary. P wins a trick only with the highest card of
    the suit led, and the pair never beats P unless forced (no trumps: a void seat
    discards). Relevant cards: P's lowest card of the suits that decide, which fixes (with
    the hand shapes) how many cards of each seat lie below it."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int partner = 3 - L - P
    cdef int s, o, c, low, m, lcount, plen, duck = 0, safe = 1
    cdef int cap[4]
    cdef int cap1[4]
    cdef int forcing[4]
    cdef uint64_t lane, pl, lane_o, lane_l, lane_p, tmp, r = 0, rd = 0, rs = 0
    if L == P:
        # P on lead. The pair keeps P on lead, winning, while each opponent can follow
        # P's leads under P's lowest card of the suit led: with, per suit of P and
        # opponent, l cards below P's lowest and h above it (h > 0), P can lead the suit
        # only l times before the opponent must beat it, unless l >= P's length there;
        # the opponent discards its "above" cards first. So P takes at least the least
        # such l tricks (all n if none is limited). An opponent with l == 0 < h: P
        # leading that suit loses the trick.
        m = n
        for s in range(4):
            lane = inplay & suit_mask(s)
            pl = st.hands[P] & lane
            if not pl:
                continue
            low = lowest_card(pl)
            tmp = lane & ~pl
            if not tmp:
                continue
            if highest_card(pl) > lowest_card(tmp):
                safe = 0
            r |= (<uint64_t>1) << low
            for o in range(3):
                if o != P:
                    lane_o = st.hands[o] & lane
                    if not lane_o:
                        continue
                    lcount = popcount(lane_o & _below(low))
                    if lcount < popcount(lane_o) and lcount < popcount(pl) and lcount < m:
                        m = lcount
                    if lcount == 0 and not duck:
                        duck = 1
                        rd = (<uint64_t>1) << low
        if m:
            lo[0] = m
            rlo[0] = r
        if duck:
            if safe:
                # Every card of P is below all the others of its suit: P loses this
                # trick and, never winning, never leads again (see below).
                hi[0] = 0
                rhi[0] = r
            else:
                hi[0] = n - 1
                rhi[0] = rd
        return
    # The pair on lead. A suit of P where both opponents hold a lower card (or the
    # leader does and the partner is void): leading it wins P this trick. P ducks this
    # trick if, in every suit the leader holds, P is void or holds a card below all of
    # the leader's.
    # If in every suit P can duck all the pair's leads (_ducks_all), P never takes a trick:
    # each trick is led by the pair and P plays under it.
    #
    # After such a forcing trick P is on lead, and the count above applies to what is left
    # (the two low cards the pair played there were below P's lowest card of the suit):
    # P takes 1 + that many tricks at least.
    duck = 1
    m = n
    for s in range(4):
        cap[s] = n
        cap1[s] = n
        forcing[s] = 0
        lane = inplay & suit_mask(s)
        pl = st.hands[P] & lane
        if not pl:
            continue
        low = lowest_card(pl)
        plen = popcount(pl)
        tmp = lane & ~pl
        if tmp:
            if not _ducks_all(pl, tmp):
                safe = 0
            rs |= pl & (~pl + 1)
            for o in range(3):
                if o == P:
                    continue
                lane_o = st.hands[o] & lane
                if not lane_o:
                    continue
                lcount = popcount(lane_o & _below(low))
                if lcount < popcount(lane_o):
                    if lcount < plen and lcount < cap[s]:
                        cap[s] = lcount
                    if plen > 1 and lcount - 1 < plen - 1 and lcount - 1 < cap1[s]:
                        cap1[s] = lcount - 1
        lane_l = st.hands[L] & lane
        if not lane_l:
            continue
        r |= (<uint64_t>1) << low
        if lowest_card(lane_l) > low:
            continue
        duck = 0
        lane_p = st.hands[partner] & lane
        if not lane_p or lowest_card(lane_p) < low:
            forcing[s] = 1
    for s in range(4):
        if not forcing[s]:
            continue
        c = cap1[s]
        for o in range(4):
            if o != s and cap[o] < c:
                c = cap[o]
        if c > n - 1:
            c = n - 1
        if c < 0:
            c = 0
        if c + 1 > lo[0]:
            lo[0] = c + 1
            rlo[0] = rs
    if safe:
        hi[0] = 0
        rhi[0] = rs
    elif duck:
        hi[0] = n - 1
        rhi[0] = r


# ---------------------------------------------------------------- search

cdef inline void _sort_moves(int* moves, int* scores, int nmoves) noexcept nogil:
    """Insertion sort, highest score first."""
    cdef int i, j, card, tmp
    for i in range(1, nmoves):
        card = moves[i]
        tmp = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < tmp:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = card
        scores[j + 1] = tmp


cdef inline int _search(SolverState* st, int target, uint64_t* rel) noexcept nogil:
    """f >= target? answered with a bound b on f (fail-soft): b >= target proves f >= b,
    b < target proves f <= b. A node passes up the bound of the move that decided it, or,
    where every move was tried, the loosest of theirs; quick bounds and table entries give
    theirs. The table stores these bounds, which are often tighter than the target asked:
    later searches with other targets (the next step of _solve_value, or the same position
    reached with P holding another number of tricks) cut there too. rel: the relevant
    cards, which cover the bound as they cover the answer."""
    cdef uint64_t inplay
    cdef int i
    if st.ntrick == 0:
        return _search_lead(st, target, rel)
    inplay = st.hands[0] | st.hands[1] | st.hands[2]
    for i in range(st.ntrick):
        inplay |= (<uint64_t>1) << st.trick[i]
    return _search_follow(st, target, rel, inplay)


cdef inline uint64_t _next_owners(uint64_t h0r, uint64_t h1r, const uint64_t* ends,
                                  int k) noexcept nogil:
    """The seats holding each suit's k-th card, from the relative-rank hands and the suits'
    end bits (see _boundary_key), one byte per suit: 0, 1 or 2, 3 for none."""
    cdef uint64_t out = 0, card, start = 1
    cdef int s
    for s in range(4):
        card = ends[s] >> k
        if card >= start:
            out |= <uint64_t>(0 if h0r & card else (1 if h1r & card else 2)) << (8 * s)
        else:
            out |= <uint64_t>3 << (8 * s)
        start = ends[s]
    return out


cdef inline bint _tops_exact(int code, uint64_t inplay, int k) noexcept nogil:
    """An entry keeps the top k cards of every suit exact (all, where fewer)."""
    cdef int s, n
    for s in range(4):
        n = popcount(inplay & suit_mask(s))
        if ((code >> (4 * s)) & 15) < (k if n > k else n):
            return 0
    return 1


cdef int _search_lead(SolverState* st, int target, uint64_t* rel) noexcept nogil:
    """f >= target? at a trick boundary (st.ntrick == 0), as a bound on f (fail-soft, see
    _search). rel: the relevant cards."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int i, k, w, nmoves, card, r, maximizer, lo, hi, best, s, nfound, live, same, killer
    cdef TTEntry* found[FOUND_MAX]
    cdef uint64_t chain[CHAIN]
    cdef uint64_t chain2[CHAIN]
    cdef uint64_t* cur = chain
    cdef int split, hot, nchain1 = 0
    cdef int nchain
    cdef int cards[3]
    cdef int moves[16]
    cdef int scores[16]
    cdef uint64_t inplay, hand, reps, key, bit, h0r, h1r, mask, emask, total, gaps, crel, acc
    cdef uint64_t rlo, rhi, skip
    cdef uint64_t ends[4]
    cdef int code
    cdef uint64_t hsh
    cdef int64_t nodes0
    cdef int sibling = NO_MOVE
    cdef TTEntry* b
    cdef TTEntry* e
    rel[0] = 0
    if target <= 0:
        return 0
    if target > n:
        return n
    if n == 1:
        for i in range(3):
            cards[i] = lowest_card(st.hands[_seat(L + i)])
        k = trick_winner_c(cards, 3, st.trump)
        rel[0] = _rank_winner(cards, k)
        return 1 if _seat(L + k) == P else 0
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    nodes0 = st.nodes
    inplay = st.hands[0] | st.hands[1] | st.hands[2]

    # The table's bucket first, so that its memory arrives while the bounds are computed
    # (1.05x faster on 60 full deals, for the work wasted where the bounds decide).
    key = _boundary_key(st, inplay, &h0r, &h1r, &mask, ends)
    hsh = _mix64(key ^ _mix64((h0r & mask) * 3 + (h1r & mask)))
    key &= CHECK
    total = ends[0] + ends[1] + ends[2] + ends[3]
    chain[0] = _chain_bucket(st, hsh, 0)
    live = _live(st, chain[0])
    b = st.tt + chain[0] * BUCKET
    ts_prefetch(b + (live - 1 if live else 0))

    # Quick tricks.
    _quick_bounds(st, inplay, &lo, &hi, &rlo, &rhi)
    if lo >= target:
        rel[0] = rlo
        return lo
    if hi < target:
        rel[0] = rhi
        return hi

    # Table.
    best = NO_MOVE
    nfound = 0
    # The live entries of a bucket are a prefix (see _tt_store), scanned newest first: a
    # search revisits the positions it stored last most often. A full bucket continues in the
    # next bucket of the position's chain: some coarse positions (suit lengths and top
    # owners) collect thousands of entries in the heavy deals, and with room for 256 the
    # searches kept replacing and recomputing them (chains of 8 such buckets: 4-6x fewer
    # nodes on the four heaviest trump and no-trump deals of the benchmark). Buckets of 128
    # in chains of 16 hold as much for one position, while a scan passes fewer entries of
    # other positions: no-tricks, where 256-entry buckets could not chain without doubling
    # the time of the hottest scans, now chains and takes 1.12x less time per deal (1.2x in
    # total, seeds 0-8), trump and no-trump the same.
    nchain = 0
    split = 0
    while True:
        same = 0
        for i in range(live - 1, -1, -1):
            e = &b[i]
            if (e.key & CHECK) != key:
                continue
            same += 1
            # The newest move of the coarse position (used only if no entry for these cards
            # has one: see below).
            if sibling == NO_MOVE:
                sibling = _e_best(e)
            # The entry's cards must be among the probe's (a first test without the mask).
            if ((e.h0 & ~h0r) | (e.h1 & ~h1r)) & HAND:
                continue
            emask = _code_mask(e.h0 >> 48, ends, total)
            if (h0r & emask) != (e.h0 & HAND) or (h1r & emask) != (e.h1 & HAND):
                continue
            if nfound < FOUND_MAX:
                found[nfound] = e
            nfound += 1
            if _e_lo(e) >= target:
                rel[0] = _rel_of(emask, inplay)
                _e_touch(e, st.gen)
                return _e_lo(e)
            if _e_hi(e) < target:
                rel[0] = _rel_of(emask, inplay)
                _e_touch(e, st.gen)
                return _e_hi(e)
            if best == NO_MOVE:
                best = _e_best(e)
        nchain += 1
        hot = live == BUCKET and same >= BUCKET // 4
        if nchain == 1 and hot and not split:
            split = 1
        # Only a bucket filled mostly by this coarse position continues: a table kept over
        # many solves fills every bucket with many positions, and chains there only made
        # every scan longer (a computer player's searches took twice the time).
        if not hot or nchain == CHAIN:
            if split == 1:
                # Where one coarse position fills its first bucket (the heavy deals, where a
                # probe scanned 210 entries), its entries that keep each suit's next card
                # exact too (the top two in trump and no-trump, 75-90% of the entries
                # there; the top four in no-tricks) go to a second chain, hashed on the
                # owners of those cards too. A position whose first bucket is no longer so
                # full misses them there: that costs a search, never a wrong value. In
                # no-tricks it took 1.03-1.08x fewer nodes on the five heaviest of seeds
                # 0-199 tried, the others the same.
                split = 2
                nchain1 = nchain
                cur = chain2
                hsh = _mix64(hsh ^ _mix64(_next_owners(h0r, h1r, ends, st.mink + 1) + 1))
                nchain = 0
                cur[0] = _chain_bucket(st, hsh, 0)
                live = _live(st, cur[0])
                b = st.tt + cur[0] * BUCKET
                continue
            break
        cur[nchain] = _chain_bucket(st, hsh, nchain)
        live = _live(st, cur[nchain])
        b = st.tt + cur[nchain] * BUCKET

    # No entry for these cards: the best lead of the newest entry of the same coarse position
    # (suit lengths, leader, top owners) with other low cards is often this one's best too.
    # Nodes, geometric mean per deal: 1.01-1.09x fewer in the five trump and no-trump
    # contracts (seeds 0-59 and held-out 100-159; totals 0.98-1.17x), no-tricks 1.04x
    # (seeds 0-39, totals the same); time 1.04-1.08x less per deal on held-out seeds
    # 200-239 of the five. The newest such entry did better than the costliest.
    if best == NO_MOVE:
        best = sibling
    maximizer = (L == P) != st.misere
    hand = st.hands[L]
    gaps = DECK & ~inplay
    reps = _run_tops(hand, gaps)
    if best != NO_MOVE:
        s = best >> 4
        k = popcount(inplay & suit_mask(s)) - 1 - (best & 15)
        best = -1
        if k >= 0:
            card = nth_card(inplay & suit_mask(s), k)
            if (hand >> card) & 1:
                # Any card of a run may have been stored: use the run's top.
                best = lowest_card(reps & ~_below(card))
    else:
        best = -1
    # The killer lead (the leader's lead that cut elsewhere at this depth where the order's
    # first failed) comes right after the table's move where the fitted orders are
    # weakest: the pair's leads in trump contracts and in no-tricks, P's in no-trump. Nodes
    # on held-out seeds 40-99, geometric mean per deal: 1.05-1.12x fewer in the five trump
    # and no-trump contracts (no-trump 1.21x in total); no-tricks seeds 0-15 1.03x (1.06x
    # in total). For the other side of each it measured worse, and so did a second killer.
    killer = st.killer[n][L] if (L != P) == (st.trump >= 0 or st.misere != 0) else -1
    nmoves = 0
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        if card == best:
            scores[nmoves] = 1 << 30
        elif card == killer:
            scores[nmoves] = 1 << 29
        else:
            scores[nmoves] = _lead_score(st, card, inplay) + 20 * st.hist[L != P][card]
        nmoves += 1
    _sort_moves(moves, scores, nmoves)
    if st.trump >= 0 and L != P:
        # The pair's leads in trump contracts: the fit below trades its features against
        # the place in the order above (10 per place), the table's move and the killer
        # staying first.
        for i in range(nmoves):
            if scores[i] < 1 << 29:
                scores[i] = -10 * i + _pair_trump_lead_fit(st, moves[i], inplay)
        _sort_moves(moves, scores, nmoves)

    # No move reaching the leader's aim: the bound is the loosest of the moves' bounds.
    r = -1 if maximizer else n
    best = -1
    acc = 0
    skip = 0
    for i in range(nmoves):
        card = moves[i]
        if (skip >> card) & 1:
            continue
        bit = (<uint64_t>1) << card
        st.hands[L] ^= bit
        st.trick[0] = card
        st.ntrick = 1
        k = _search_follow(st, target, &crel, inplay)
        st.ntrick = 0
        st.hands[L] ^= bit
        if st.abort:
            return 0
        crel = _run_adjust(crel, card, hand & ~bit, gaps)
        if (k >= target) == maximizer:
            r = k
            best = card
            acc = crel
            if i > 0:
                st.killer[n][L] = card
                if st.hist[L != P][card] < 63:
                    st.hist[L != P][card] += 1
            break
        r = max(r, k) if maximizer else min(r, k)
        acc |= crel
        skip |= _small_twins(crel, card, hand)
    rel[0] = acc
    mask = _exact_mask(acc, inplay, st.mink, &code)
    if best >= 0:
        s = card_suit(best)
        best = s * 16 + popcount(inplay & suit_mask(s) & _above(best))
    else:
        best = NO_MOVE
    if split:
        if _tops_exact(code, inplay, st.mink + 1):
            cur = chain2
        else:
            cur = chain
            nchain = nchain1
    # The result as bounds: f >= r, or f <= r.
    _tt_store(st, cur, nchain, found, nfound, key, h0r & mask, h1r & mask, code,
              r if r >= target else 0, n if r >= target else r, best,
              _ilog2(st.nodes - nodes0 + 1))
    return r


cdef inline void _tt_store(SolverState* st, uint64_t* chain, int nchain,
                           TTEntry** found, int nfound, uint64_t key, uint64_t h0, uint64_t h1,
                           int code, int lo, int hi, int best, int work) noexcept nogil:
    """Store a result in the chain of buckets the probe scanned. The probe listed the
    entries matching the position (found): an entry for the same cards can only be among
    those (the positions searched meanwhile hold fewer cards, so they never share the
    key), which spares a scan. Entries may have been replaced meanwhile, so they are
    checked again."""
    cdef TTEntry* e
    cdef TTEntry* b
    cdef int i, j, live
    cdef uint64_t age
    if nfound <= FOUND_MAX:
        for j in range(nfound):
            e = found[j]
            if _e_same(e, key, h0, h1, code):
                _tt_merge(e, lo, hi, best, work, st.gen)
                return
    else:
        for j in range(nchain):
            b = st.tt + chain[j] * BUCKET
            live = _live(st, chain[j])
            for i in range(live):
                e = &b[i]
                if _e_same(e, key, h0, h1, code):
                    _tt_merge(e, lo, hi, best, work, st.gen)
                    return
    # Not present: append to the last bucket the probe scanned (the live entries stay a
    # prefix of each bucket), else take the place of its entry that the latest searches
    # stored or used least recently and, among those, that cost least to compute. Work
    # alone kept the costly entries of earlier tests (other targets) that the current test
    # no longer reaches: the heavy no-tricks deals, which fill the table, took 1.08-1.25x
    # fewer nodes (seeds 9, 10, 25, 81, 148; 1.1x less time), the others the same.
    b = st.tt + chain[nchain - 1] * BUCKET
    live = _live(st, chain[nchain - 1])
    if live < BUCKET:
        e = &b[live]
        st.heads[chain[nchain - 1]] = (<uint32_t>st.epoch << 16) | (live + 1)
    else:
        # h1 - age (mod 2^64) holds in its top bits 3 for the current generation, 2 for the
        # one before, and so on; the work follows, then the best move (NO_MOVE, the
        # largest, keeps the entries where every move was tried a little longer).
        age = st.gen + ((<uint64_t>1) << 62)
        e = &b[0]
        for i in range(1, BUCKET):
            if b[i].h1 - age < e.h1 - age:
                e = &b[i]
    _e_set(e, key, h0, h1, code, lo, hi, best, work, st.gen)


cdef inline void _tt_merge(TTEntry* e, int lo, int hi, int best, int work,
                           uint64_t gen) noexcept nogil:
    """Tighten an entry with a new result for the same cards."""
    _e_set(e, e.key & CHECK, e.h0 & HAND, e.h1 & HAND, e.h0 >> 48, max(lo, _e_lo(e)),
           min(hi, _e_hi(e)), _e_best(e) if best == NO_MOVE else best,
           max(work, _e_work(e)), gen)


cdef inline int _pair_trump_lead_fit(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Fitted adjustment to the order of the pair's leads in trump contracts (fitted like
    _lead_fit, but against each lead's place in the rule-and-history order: the first
    lead cut at 84% of the logged nodes, from 76%): not into P's ruff, not the top card,
    rather to the partner's top card or ruff, and suits where P holds few cards."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int partner = 3 - L - P
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t pl = st.hands[P] & lane
    cdef int winner = highest_card(lane) == card
    cdef int ruff = _can_ruff(st, P, s)
    cdef int partner_top = (st.hands[partner] >> highest_card(lane)) & 1
    cdef int partner_ruff = _can_ruff(st, partner, s)
    cdef int second = not winner and popcount(lane & _above(card)) == 1
    cdef int above = min(popcount(pl & _above(card)), 4)
    cdef uint64_t mine = st.hands[L] & lane
    return (-10 * winner - 30 * ruff + 10 * (winner != 0 and ruff != 0) + 10 * partner_top
            - (partner_top != 0 and ruff != 0) + 10 * partner_ruff - popcount(mine)
            + 3 * second - 10 * (card == lowest_card(mine)) - 3 * above - 10 * min(popcount(pl), 6))


cdef inline int _lead_score(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Move-ordering score for a card led (higher first)."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int o, partner, rank = card_rank(card)
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t above = lane & _above(card)
    cdef uint64_t below = lane & _below(card)
    cdef uint64_t pl, mine, theirs, ptn
    cdef int sure_duck, voids, nb, na, lowest, forcing, pb, sc
    if st.misere:
        # Weights fitted to which leads cut in logged no-tricks searches (full deals, 5 or
        # more tricks left, nodes where some leads cut and some did not); they put a
        # cutting lead first at 82% (P) and 85% (pair) of such nodes, against about 50%
        # for the hand-written rules they replaced.
        pl = st.hands[P] & lane
        if L == P:
            # P: lead from short suits that both opponents still hold; a card under all of
            # one opponent's cards ducks for sure, but P's lowest card of the suit is
            # better kept (as a later exit) unless some opponent's card lies below it.
            sure_duck = 0
            voids = 0
            for o in range(3):
                if o != P:
                    theirs = st.hands[o] & lane
                    if not theirs:
                        voids += 1
                    elif lowest_card(theirs) > card:
                        sure_duck = 1
            theirs = lane & ~pl
            nb = popcount(theirs & below)
            na = popcount(theirs & above)
            lowest = card == lowest_card(pl)
            sc = 2000 - 100 * popcount(pl) - 100 * voids + sure_duck * rank + min(nb, 4) - min(na, 4)
            if lowest:
                sc += -100 if sure_duck and nb == 0 else (1 if nb >= 2 else 0) - 1
            return sc
        # The pair: lead cards P can play under (so P spends its low cards), from the
        # leader's short suits and suits the partner is out of; not suits P is out of (P
        # sheds its dangerous cards); forcing P at once (the pair's last low card of the
        # suit, all of P's above) comes late.
        partner = 3 - L - P
        mine = st.hands[L] & lane
        ptn = st.hands[partner] & lane
        forcing = pl != 0 and card == lowest_card(mine) and lowest_card(pl) > card and (
            not ptn or lowest_card(pl) > lowest_card(ptn))
        pb = popcount(pl & below)
        sc = 3000 - 100 * forcing + 100 * min(pb, 4) - 30 * popcount(mine)
        if not pl:
            sc -= 100 * (1 + rank)
        if not ptn:
            sc += 100
        if card == lowest_card(mine):
            sc -= 10
        if pb == 0 and (pl & above):
            sc -= 30
        return sc
    # Trump and no-trump: weights fitted like the no-tricks ones above (first lead cut at
    # 87% of P's and 91% of the pair's nodes in no-trump, 90% of P's in hearts, from 76-80%),
    # ahead of the hand-written rules and the history, which order the ties.
    return 2048 * _lead_fit(st, card, inplay) + _lead_rules(st, card, inplay)


cdef inline int _replies(SolverState* st, int o, int s, uint64_t gaps) noexcept nogil:
    """How many different answers (one per run of equivalent cards) seat o has to a lead
    of suit s."""
    return popcount(_run_tops(st.hands[o], gaps)
                    & legal_mask(st.hands[o], s, st.trump, st.void_rule))


cdef inline int _lead_fit(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Fitted lead score in trump and no-trump games. Leader's side: prefer suits where the
    other side holds few cards, not the leader's lowest card; in no-trump P cashes its
    top sequences, in trump contracts P leads side suits it is long in (ruffing leads
    count as cashing for no one). The pair's leads in trump contracts: see
    _pair_trump_lead_fit.

    In trump contracts, each answer the other side has to the lead costs one point: after
    a lead that succeeds, every answer must be refuted, so leads that leave few (the
    other side follows from few runs rather than discards or ruffs freely) make smaller
    proofs. That took 1.39x fewer nodes (geometric mean) and 1.7x less time on 160 full
    deals of the four trump contracts; in no-trump it was neutral."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int trump = st.trump
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t mine = st.hands[L] & lane
    cdef uint64_t others = lane & ~mine
    cdef uint64_t gaps = DECK & ~inplay
    cdef int o, winner, length, seq, lowest, second, voids = 0, theirs = 0, ruff = 0
    cdef int answers = 0
    winner = highest_card(lane) == card
    length = popcount(mine)
    seq = popcount(mine & _above(highest_card(others))) if others else length
    lowest = card == lowest_card(mine)
    for o in range(3):
        if o != L and (L == P or o == P):
            if not (st.hands[o] & lane):
                voids += 1
                if _can_ruff(st, o, s):
                    ruff = 1
            theirs += popcount(st.hands[o] & lane)
            if trump >= 0:
                answers += _replies(st, o, s, gaps)
    if theirs > 6:
        theirs = 6
    if trump < 0:
        if L == P:
            return 30 * (winner + seq - voids - lowest - theirs) + length
        return voids - 100 * theirs
    if L != P:
        return -answers
    second = (not winner) and popcount(lane & _above(card)) == 1
    return (ruff - 3 * (winner and ruff) + length - 3 * (s == trump) + voids + second - lowest
            - theirs - answers)


cdef inline int _lead_rules(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Hand-written lead score in trump and no-trump games (higher first)."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int o, partner, rank = card_rank(card)
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t above = lane & _above(card)
    cdef int ruffable = 0
    for o in range(3):
        if o != L and (o == P) != (L == P) and _can_ruff(st, o, s):
            ruffable = 1
    if not above:
        if ruffable:
            return 40 + rank
        return 200 + rank           # a winner: cash it
    if L != P:
        partner = 3 - L - P
        if (st.hands[partner] & lane) and highest_card(lane) == highest_card(st.hands[partner] & lane):
            if not ruffable:
                return 150 - rank   # low to partner's top card
    if ruffable:
        return 10 - rank
    return 60 - rank


cdef inline int _order_follows(SolverState* st, uint64_t reps, int mover,
                               int* moves) noexcept nogil:
    """Put the mover's cards reps into moves, best first (_follow_score); returns how many.
    Only for two or more cards: a single card needs no scores."""
    cdef int L = st.leader
    cdef int P = st.player
    cdef int nt = st.ntrick
    cdef int trump = st.trump
    cdef int card, wins, side_winning, third_max, nmoves = 0
    cdef int scores[16]
    cdef int winner_idx = trick_winner_c(st.trick, nt, trump)
    # Is the trick currently won by the mover's side?
    side_winning = (_seat(L + winner_idx) == P) == (mover == P)
    # Second hand: the best card the third hand can play (-1: none that can win).
    third_max = -1
    if nt == 1:
        third_max = _third_card(st, card_suit(st.trick[0]))
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        wins = beats(card, st.trick[winner_idx], trump)
        scores[nmoves] = _follow_score(st, card, wins, side_winning, mover, third_max)
        nmoves += 1
    _sort_moves(moves, scores, nmoves)
    return nmoves


cdef inline void _killer_first(int* moves, int nmoves, int killer) noexcept nogil:
    """Move the killer card, if among the moves, to the front (the others keep their order)."""
    cdef int i = nmoves - 1
    while i > 0 and moves[i] != killer:
        i -= 1
    while i > 0:
        moves[i] = moves[i - 1]
        moves[i - 1] = killer
        i -= 1


cdef int _search_follow(SolverState* st, int target, uint64_t* rel,
                        uint64_t inplay) noexcept nogil:
    """f >= target? with 1 or 2 cards on the table. rel: the relevant cards. inplay: the
    cards in the hands and the trick, the same from the trick's lead to its end (passed
    down rather than gathered again at every node)."""
    cdef int nt = st.ntrick
    cdef int L = st.leader
    cdef int P = st.player
    cdef int mover = _seat(L + nt)
    cdef int trump = st.trump
    cdef int i, k, w, win, won, nmoves, card, r, maximizer, suit
    cdef bint killing
    cdef int moves[16]
    cdef uint64_t hand, legal, reps, bit, gaps, crel, acc, skip
    cdef int saved_left
    cdef int t0 = st.trick[0]
    cdef int t1 = st.trick[1]
    rel[0] = 0
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    hand = st.hands[mover]
    suit = card_suit(t0)
    legal = legal_mask(hand, suit, trump, st.void_rule)
    # The pair's killer card in no-trump, first: the fixed order ranks discards by rank
    # alone, and which suit to discard from is what the killer mostly remembers. Nodes,
    # geometric mean per deal: no-trump 1.17x fewer (seeds 0-39; 1.15x with discards
    # alone); in trump contracts the same (0.99-1.02x), for P and in no-tricks worse.
    killing = trump < 0 and not st.misere and mover != P
    gaps = DECK & ~inplay
    reps = _run_tops(hand, gaps) & legal
    maximizer = (mover == P) != st.misere
    if reps & (reps - 1):
        nmoves = _order_follows(st, reps, mover, moves)
        if killing:
            _killer_first(moves, nmoves, st.follow_killer[st.tricks_left][nt - 1][mover][suit])
    else:
        # One run of cards to play: nothing to order.
        moves[0] = lowest_card(reps)
        nmoves = 1

    r = -1 if maximizer else st.tricks_left
    acc = 0
    skip = 0
    for i in range(nmoves):
        card = moves[i]
        if (skip >> card) & 1:
            continue
        bit = (<uint64_t>1) << card
        st.hands[mover] ^= bit
        st.trick[nt] = card
        if nt == 2:
            win = trick_winner_c(st.trick, 3, trump)
            w = _seat(L + win)
            saved_left = st.tricks_left
            st.leader = w
            st.ntrick = 0
            st.tricks_left = saved_left - 1
            won = 1 if w == P else 0
            k = _search_lead(st, target - won, &crel) + won
            st.tricks_left = saved_left
            st.leader = L
            st.ntrick = 2
            st.trick[0] = t0
            st.trick[1] = t1
            st.trick[2] = card
            crel |= _rank_winner(st.trick, win)
        else:
            st.ntrick = nt + 1
            k = _search_follow(st, target, &crel, inplay)
            st.ntrick = nt
        st.hands[mover] ^= bit
        if st.abort:
            return 0
        crel = _run_adjust(crel, card, hand & ~bit, gaps)
        if (k >= target) == maximizer:
            r = k
            acc = crel
            if i > 0 and killing:
                st.follow_killer[st.tricks_left][nt - 1][mover][suit] = card
            break
        r = max(r, k) if maximizer else min(r, k)
        acc |= crel
        skip |= _small_twins(crel, card, hand)
    rel[0] = acc
    return r


cdef inline int _best_reply(uint64_t hand, int lead_suit, int trump, int void_rule) noexcept nogil:
    """The strongest card a hand can play to a trick led in lead_suit: its highest card of
    the suit, else its highest trump when it may ruff, else -1 (it cannot win)."""
    cdef uint64_t x = hand & suit_mask(lead_suit)
    if x:
        return highest_card(x)
    if trump >= 0:
        x = hand & suit_mask(trump)
        if x:
            return highest_card(x)
    return -1


cdef inline int _third_card(SolverState* st, int lead_suit) noexcept nogil:
    """For the second hand's move ordering: in trump and no-trump the strongest card the
    third hand can play (_best_reply); in no-tricks its lowest card of the suit led (-1:
    void)."""
    cdef uint64_t x
    cdef int third = _seat(st.leader + 2)
    if st.misere:
        x = st.hands[third] & suit_mask(lead_suit)
        return lowest_card(x) if x else -1
    return _best_reply(st.hands[third], lead_suit, st.trump, st.void_rule)


cdef inline int _misere_follow_score(SolverState* st, int card, int wins, int side_winning,
                                     int mover, int third_max) noexcept nogil:
    """No-tricks: move-ordering score for a card played to a trick (higher first).

    First come weights fitted to which cards cut in logged full-deal searches (the first
    card cut at 89% of P's and 77% of the pair's nodes, from 76% and 54%): everyone
    discards from short suits; P plays high without winning (a card the third hand must
    overtake ducks too) and discards high; the pair plays high but never over P's
    winning card unless the partner, third, must go over it anyway (an absolute rule on
    top of the fit, which alone let high cards go over: see below). The earlier
    hand-written rules order the ties: P ducks with its highest card that does not win,
    else wins high; the pair stays under P, else plays low."""
    cdef int s = card_suit(card)
    cdef int rank = card_rank(card)
    cdef uint64_t mine = st.hands[mover] & suit_mask(s)
    cdef int length = popcount(mine)
    cdef int follows = s == card_suit(st.trick[0])
    cdef int lowest = card == lowest_card(mine)
    cdef int highest = card == highest_card(mine)
    cdef int overtake = st.ntrick == 1 and follows and third_max >= 0 and third_max > card
    cdef int last_wins = st.ntrick == 2 and wins != 0
    cdef int fit, rule, plen
    if mover == st.player:
        fit = -3 * wins + rank - lowest - 100 * length + 3 * overtake - 3 * last_wins
        if not follows:
            fit += 10 * rank + 3 * length
        rule = 100 + rank if not wins or overtake else rank
    else:
        plen = popcount(st.hands[st.player] & suit_mask(s))
        if plen > 5:
            plen = 5
        fit = (wins + 10 * (rank + highest - lowest) - 100 * length + 30 * overtake
               + 10 * last_wins + 3 * plen)
        if not follows:
            fit += 3 * (rank - length)
        if wins and not side_winning and not (st.ntrick == 1 and third_max > st.trick[0]):
            # Over P's winning card only once no card keeps P winning, unless the third
            # hand (the partner) must go over P anyway. The fit's penalty of 100 was
            # smaller than the rank terms, so a high card went over P first: absolute, it
            # took 1.14x fewer nodes per deal on seeds 0-39 (1.10x in total) and 1.17x on
            # held-out 100-129 (1.23x); 130 (just over the rank terms' largest) measured
            # 1.12x, at the third hand alone 1.09x. Exempting the second hand where the
            # partner must go over P: a further 1.07x fewer (seeds 0-39, 1.14x in total),
            # 1.05x on 100-129 (1.14x).
            fit -= 1000
        rule = 100 + rank if not wins else 50 - rank
    return 256 * fit + rule


cdef inline int _follow_score(SolverState* st, int card, int wins, int side_winning,
                              int mover, int third_max) noexcept nogil:
    """Move-ordering score for a card played to a trick (higher first)."""
    cdef int v = _order_value(card, st.trump)
    cdef int third_partner
    if st.misere:
        return _misere_follow_score(st, card, wins, side_winning, mover, third_max)
    if st.ntrick == 1:
        # Second hand: a winner only counts if the third hand cannot beat it.
        third_partner = (mover != st.player) and (st.leader == st.player)
        if third_partner:
            # Partner plays last: low if the partner can take the trick anyway.
            if third_max >= 0 and beats(third_max, st.trick[0], st.trump):
                return 100 - v
            if wins:
                return 100 - v if third_max < 0 or not beats(third_max, card, st.trump) else 40 - v
            return 70 - v
        if side_winning and (third_max < 0 or not beats(third_max, st.trick[0], st.trump)):
            # The partner's lead wins whatever the third hand plays: play low, not over
            # it (ahead of the sure-winner rule below, which went over it first). Nodes
            # per deal: no-trump 1.03x fewer (160 deals), trump contracts 1.00-1.02x.
            return 100 - v if not wins else 30 - v
        if wins and (third_max < 0 or not beats(third_max, card, st.trump)):
            return 100 - v      # a sure winner, cheapest first
        return 70 - v if not wins else 40 - v
    if side_winning:
        if not wins:
            return 100 - v
        return 50 - v
    if wins:
        return 100 - v
    return 50 - v


cdef int _playout(SolverState* st0) noexcept nogil:
    """f along one greedy playout: every seat plays its first card in move order."""
    cdef SolverState tmp = st0[0]
    cdef SolverState* st = &tmp
    cdef int P = st.player
    cdef int trump = st.trump
    cdef int taken = 0
    cdef int nt, L, mover, card, best, sc, bestsc, k, winner_idx, side_winning, third_max
    cdef uint64_t inplay, reps, gaps, hand
    while st.tricks_left > 0:
        nt = st.ntrick
        L = st.leader
        mover = (L + nt) % 3
        hand = st.hands[mover]
        inplay = st.hands[0] | st.hands[1] | st.hands[2]
        for k in range(nt):
            inplay |= (<uint64_t>1) << st.trick[k]
        gaps = DECK & ~inplay
        best = -1
        bestsc = -(1 << 30)
        if nt == 0:
            reps = _run_tops(hand, gaps)
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                sc = _lead_score(st, card, inplay)
                if sc > bestsc:
                    bestsc = sc
                    best = card
        else:
            reps = _run_tops(hand, gaps) & legal_mask(hand, card_suit(st.trick[0]), trump,
                                                      st.void_rule)
            winner_idx = trick_winner_c(st.trick, nt, trump)
            side_winning = (((L + winner_idx) % 3) == P) == (mover == P)
            third_max = -1
            if nt == 1:
                third_max = _third_card(st, card_suit(st.trick[0]))
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                sc = _follow_score(st, card, beats(card, st.trick[winner_idx], trump),
                                   side_winning, mover, third_max)
                if sc > bestsc:
                    bestsc = sc
                    best = card
        st.hands[mover] ^= (<uint64_t>1) << best
        st.trick[nt] = best
        if nt == 2:
            k = (L + trick_winner_c(st.trick, 3, trump)) % 3
            if k == P:
                taken += 1
            st.leader = k
            st.ntrick = 0
            st.tricks_left -= 1
        else:
            st.ntrick = nt + 1
    return taken


cdef int _solve_value(SolverState* st) noexcept nogil:
    """f for the position in st: null-window tests from a greedy playout's value, each
    next target one past the bound the last test proved (tests around the value are
    needed anyway; this skips most others). Stopped (st.abort): -1, with the bounds the
    finished tests proved in st.cur_lo and st.cur_hi."""
    cdef int lo = 0
    cdef int hi = st.tricks_left
    cdef int t = _playout(st)
    cdef int b
    cdef uint64_t rel
    cdef int64_t limit = st.node_limit
    cdef bint budget, dropped
    if st.trump >= 0:
        # In trump contracts the playout gives P about one trick too many (on 800 full
        # deals: one more than the value in 42%, the value in 31%, two or more over in
        # 25%), and tests that succeed on the way up cost less than tests that fail on
        # the way down: starting one lower took 1.07x fewer nodes (geometric mean, 280
        # and 160 deals); two lower or a climb from 1 gained no more. Once the leads were
        # ordered by the other side's answers (_lead_fit), the playout's value, one
        # lower and two lower measured the same (160 deals).
        t -= 1
    if st.misere:
        # The playout's value is a poor guess in no-tricks (the pair's greedy play lets P
        # off lightly); climbing from 1 measured better.
        t = 1
    # In trump contracts the first test runs on a budget of FIRST_BUDGET nodes; past it, it
    # is dropped (the table keeps what it proved) and the tests start one higher. A first
    # test that heavy is mostly P proving one trick below the value, where the playout
    # guessed the value itself: the next test, at the value, costs as much again (hearts
    # seed 147: 10.7M nodes, then 15.9M). On seeds 0-299 of the four trump contracts the
    # medians stayed the same, the largest fell in 7 of 8 blocks of 100-200 deals (hearts
    # 147 26.7M -> 13.4M), the totals 1.7% lower; budgets of 256K, 512K and 4M nodes
    # measured worse or no better.
    budget = st.trump >= 0
    st.cur_lo = lo
    st.cur_hi = hi
    while lo < hi:
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        st.gen += (<uint64_t>1) << 62     # a new generation per test (see _tt_store)
        if budget and (limit == 0 or st.nodes + FIRST_BUDGET < limit):
            st.node_limit = st.nodes + FIRST_BUDGET
        b = _search(st, t, &rel)
        st.node_limit = limit
        dropped = budget and st.abort == 2 and (limit == 0 or st.nodes < limit)
        budget = 0
        if dropped:
            st.abort = 0
            t += 1
            continue
        if st.abort:
            return -1
        if b >= t:
            lo = b
            t = b + 1
        else:
            hi = b
            t = b
        st.cur_lo = lo
        st.cur_hi = hi
    return lo


# ---------------------------------------------------------------- Python-facing surface

class SearchLimit(RuntimeError):
    """A solve stopped at its node limit (``max_nodes``) or deadline before finding the
    value; ``bounds`` holds what it proved: ``(lo, hi)`` for a value, a list of
    ``(card, lo, hi)`` for per-card values."""

    def __init__(self, message, bounds=None):
        super().__init__(message)
        self.bounds = bounds


cdef class Solver:
    """Double-dummy solver for 3-5-8 positions (one player against the other two).

    The transposition table (``tt_mb`` megabytes) is kept between calls; results do not
    depend on its size. Every ``check_every`` nodes the search looks at Ctrl-C, the
    deadline and the node limit, and calls the progress callback.
    """
    cdef SolverState st
    cdef size_t tt_size
    cdef bint busy

    def __cinit__(self, int tt_mb=64, *, int64_t check_every=65536):
        cdef size_t nbytes, nbuckets
        if tt_mb < 1:
            raise ValueError(f"tt_mb must be at least 1, not {tt_mb}")
        if check_every < 1:
            raise ValueError(f"check_every must be at least 1, not {check_every}")
        # Every check takes the GIL and reads the clock: 65,536 nodes is a few milliseconds
        # of search, so a deadline is kept to about that, at no measurable cost.
        self.st.check_every = check_every
        nbytes = <size_t>tt_mb << 20
        nbuckets = nbytes // (BUCKET * sizeof(TTEntry) + sizeof(uint32_t))
        self.tt_size = nbuckets * (BUCKET * sizeof(TTEntry) + sizeof(uint32_t))
        self.st.tt = <TTEntry*>ts_table_alloc(nbuckets * BUCKET * sizeof(TTEntry))
        self.st.heads = <uint32_t*>calloc(nbuckets, sizeof(uint32_t))
        if self.st.tt == NULL or self.st.heads == NULL:
            raise MemoryError("cannot allocate the transposition table")
        # Entries are read only below their bucket's live count, so they need no zeroing;
        # it touches every page now, so that solves do not pay the first touch (the
        # benchmark's endgames on a fresh Solver took 14x longer in total).
        memset(self.st.tt, 0, nbuckets * BUCKET * sizeof(TTEntry))
        self.st.tt_buckets = nbuckets
        self.st.epoch = 1
        self.st.nodes = 0
        self.busy = False

    def __init__(self, int tt_mb=64, *, int64_t check_every=65536):
        pass

    def __dealloc__(self):
        if self.st.tt != NULL:
            ts_table_free(self.st.tt)
            self.st.tt = NULL
        free(self.st.heads)
        self.st.heads = NULL

    @property
    def nodes(self):
        """Nodes searched since construction or the last reset_stats()."""
        return self.st.nodes

    @property
    def tt_bytes(self):
        """Bytes allocated for the transposition table."""
        return self.tt_size

    def reset_stats(self):
        """Set the node counter to zero."""
        self.st.nodes = 0

    def clear(self):
        """Empty the transposition table (in constant time: buckets of earlier epochs count
        as empty; the bucket heads are zeroed once every 65535 clears)."""
        self._enter()
        self.st.epoch = (self.st.epoch + 1) & 0xFFFF
        if self.st.epoch == 0:
            memset(self.st.heads, 0, self.st.tt_buckets * sizeof(uint32_t))
            self.st.epoch = 1
        self.busy = False

    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("this Solver is already solving (use one Solver per thread)")
        self.busy = True
        return 0

    cdef int _load(self, hands, int leader, trick, int contract, int void_rule) except -1:
        """Validate a position and copy it into the search state."""
        cdef uint64_t h[3]
        cdef uint64_t seen
        cdef int i, seat, n, k, card, mover
        _check_contract(contract)
        _check_void_rule(void_rule)
        if leader < 0 or leader > 2:
            raise ValueError(f"leader must be 0-2, not {leader}")
        if len(hands) != 3:
            raise ValueError("three hands are needed")
        for i in range(3):
            x = hands[i]
            if not isinstance(x, int):
                raise TypeError(f"hand {i} must be an int card set, not {type(x).__name__}")
            if x < 0 or x.bit_length() > 64:
                raise ValueError(f"hand {i} holds bits that are not card ids")
            h[i] = x
            if h[i] & ~DECK:
                raise ValueError(f"hand {i} holds bits that are not card ids")
        if (h[0] & h[1]) or (h[0] & h[2]) or (h[1] & h[2]):
            raise ValueError("a card is in two hands")
        k = len(trick)
        if k > 2:
            raise ValueError("the trick in progress holds at most two cards")
        mover = (leader + k) % 3
        n = popcount(h[mover])
        for i in range(3):
            seat = (leader + i) % 3
            if popcount(h[seat]) != (n - 1 if i < k else n):
                raise ValueError("hand sizes do not fit the trick in progress: seats that "
                                 "have played to it hold one card fewer than the others")
        if k and n == 0:
            raise ValueError("the seat to move has no cards")
        seen = h[0] | h[1] | h[2]
        for i in range(k):
            card = trick[i]
            _check_card(card)
            if (seen >> card) & 1:
                raise ValueError(f"trick card {card} is also in a hand or played twice")
            seat = (leader + i) % 3
            if not (legal_mask(h[seat] | ((<uint64_t>1) << card),
                               card_suit(trick[0]) if i else -1,
                               trump_of(contract), void_rule) >> card) & 1:
                raise ValueError(f"trick card {card} is not a legal play for seat {seat}")
            seen |= (<uint64_t>1) << card
            self.st.trick[i] = card
        for i in range(3):
            self.st.hands[i] = h[i]
        memset(self.st.hist, 0, sizeof(self.st.hist))
        memset(self.st.killer, 255, sizeof(self.st.killer))
        memset(self.st.follow_killer, 255, sizeof(self.st.follow_killer))
        self.st.ntrick = k
        self.st.leader = leader
        self.st.tricks_left = n
        self.st.trump = trump_of(contract)
        self.st.contract = contract
        self.st.void_rule = void_rule
        self.st.misere = contract == NO_TRICKS
        self.st.mink = 3 if self.st.misere else 1
        self.st.abort = 0
        self.st.check_at = self.st.nodes + self.st.check_every
        return 0

    cdef void _set_player(self, int player) noexcept nogil:
        cdef int vr = self.st.void_rule if self.st.trump >= 0 else 0
        self.st.player = player
        # key bits 44-49: player (2) | contract (3) | void rule (1); leader at 50-51.
        self.st.meta = <uint64_t>(player | (self.st.contract << 2) | (vr << 5)) << 44

    cdef void _limits(self, int64_t max_nodes, double deadline, progress) noexcept:
        # A node budget is deterministic (the same stop on any machine); a deadline is not.
        # progress is a borrowed reference: the caller's argument keeps it alive.
        self.st.node_limit = self.st.nodes + max_nodes if max_nodes > 0 else 0
        self.st.deadline = deadline if deadline > 0 else 0
        self.st.progress = <PyObject*>progress if progress is not None else NULL
        self.st.cur_card = -1

    cdef int _leave(self) except -1:
        """End a call: a signal or an error in the progress callback is raised; a node
        limit or a deadline is not (the caller answers with bounds)."""
        self.busy = False
        self.st.progress = NULL
        if self.st.abort == 1:
            if PyErr_Occurred() != NULL:
                return -1
            raise KeyboardInterrupt
        return 0

    cdef str _stop_reason(self):
        if self.st.abort == 3:
            return f"the deadline was reached after {self.st.nodes} nodes"
        return f"the node limit was reached after {self.st.nodes} nodes"

    cdef int _start(self, hands, int leader, trick, int contract, int void_rule,
                    int64_t max_nodes, double deadline, progress) except -1:
        self._enter()
        try:
            self._load(hands, leader, trick, contract, void_rule)
        except BaseException:
            self.busy = False
            raise
        self._limits(max_nodes, deadline, progress)
        return 0

    def bounds(self, hands, int leader, trick, int contract, int void_rule, int player,
               *, int64_t max_nodes=0, double deadline=0, progress=None):
        """``(lo, hi)`` with lo <= the player's value <= hi (see :meth:`value`); exact when
        lo == hi, which it always is without a limit.

        The search stops after ``max_nodes`` more nodes (0: no limit) or once
        ``time.monotonic()`` reaches ``deadline`` (0: none), both looked at every 65,536
        nodes, and then answers with the bounds it proved. ``progress``, if given, is
        called at those checks as ``progress(nodes, -1, lo, hi)``. What the table holds
        stays valid: asking again goes on from what was learnt.
        """
        cdef int v
        if player < 0 or player > 2:
            raise ValueError(f"player must be 0-2, not {player}")
        self._start(hands, leader, trick, contract, void_rule, max_nodes, deadline, progress)
        self._set_player(player)
        with nogil:
            v = _solve_value(&self.st)
        self._leave()
        if self.st.abort:
            return (self.st.cur_lo, self.st.cur_hi)
        return (v, v)

    def value(self, hands, int leader, trick, int contract, int void_rule, int player,
              *, int64_t max_nodes=0, double deadline=0):
        """The player's double-dummy value from this position on (trick in progress counts).

        Trump and no-trump: most tricks the player can guarantee against the other two.
        No-tricks: fewest tricks the player can guarantee not to exceed. Stopped by
        ``max_nodes`` or ``deadline`` (see :meth:`bounds`): SearchLimit, with the bounds.
        """
        lo, hi = self.bounds(hands, leader, trick, contract, void_rule, player,
                             max_nodes=max_nodes, deadline=deadline)
        if lo != hi:
            raise SearchLimit(self._stop_reason(), (lo, hi))
        return lo

    def move_bounds(self, hands, int leader, trick, int contract, int void_rule,
                    *, int64_t max_nodes=0, double deadline=0, progress=None,
                    int64_t per_card=0, uint64_t only=0):
        """``(card id, lo, hi)`` for every legal card, ascending card id: lo <= the mover's
        value after playing it <= hi. Limits as in :meth:`bounds`, for all the cards
        together (a card not reached gets the bounds of no search); ``per_card`` (if not 0)
        is also a node budget for each card's search alone, and ``only`` (if not 0) a card
        set outside which cards are not searched (they get the bounds of no search).
        ``progress`` is called as ``progress(nodes, card, lo, hi)``."""
        cdef SolverState* st = &self.st
        cdef int nt, mover, L, card, w, i, nreps, saved_left, v, t0, t1, won, lo, hi
        cdef int64_t limit
        cdef uint64_t inplay, legal, reps, hand, bit, legal_left
        cdef int repcards[16]
        cdef int replo[16]
        cdef int rephi[16]
        self._start(hands, leader, trick, contract, void_rule, max_nodes, deadline, progress)
        nt = st.ntrick
        L = st.leader
        mover = (L + nt) % 3
        t0 = st.trick[0]
        t1 = st.trick[1]
        hand = st.hands[mover]
        if hand == 0:
            self._leave()
            return []
        self._set_player(mover)
        inplay = st.hands[0] | st.hands[1] | st.hands[2]
        for i in range(nt):
            inplay |= (<uint64_t>1) << st.trick[i]
        legal = legal_mask(hand, card_suit(st.trick[0]) if nt else -1, st.trump, st.void_rule)
        reps = _run_tops(hand, DECK & ~inplay) & legal
        nreps = 0
        limit = st.node_limit
        with nogil:
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                bit = (<uint64_t>1) << card
                st.hands[mover] ^= bit
                st.trick[nt] = card
                st.cur_card = card
                won = 0
                if only and not (only & bit):
                    st.abort = st.abort or 4    # not searched: the bounds of no search
                elif per_card > 0 and (limit == 0 or st.nodes + per_card < limit):
                    st.node_limit = st.nodes + per_card
                if nt == 2:
                    # The card completes the trick: the rest is a new position.
                    w = (L + trick_winner_c(st.trick, 3, st.trump)) % 3
                    won = w == mover
                    saved_left = st.tricks_left
                    st.leader = w
                    st.ntrick = 0
                    st.tricks_left = saved_left - 1
                    lo = 0
                    hi = st.tricks_left
                    if not st.abort:
                        v = _solve_value(st)
                        if st.abort:
                            lo = st.cur_lo
                            hi = st.cur_hi
                        else:
                            lo = v
                            hi = v
                    st.tricks_left = saved_left
                    st.leader = L
                    st.ntrick = 2
                    st.trick[0] = t0
                    st.trick[1] = t1
                else:
                    st.ntrick = nt + 1
                    lo = 0
                    hi = st.tricks_left
                    if not st.abort:
                        v = _solve_value(st)
                        if st.abort:
                            lo = st.cur_lo
                            hi = st.cur_hi
                        else:
                            lo = v
                            hi = v
                    st.ntrick = nt
                st.hands[mover] ^= bit
                repcards[nreps] = card
                replo[nreps] = lo + won
                rephi[nreps] = hi + won
                nreps += 1
                # A card's own budget or a card left out stops only that card.
                st.node_limit = limit
                if st.abort == 4 or (st.abort == 2 and (limit == 0 or st.nodes < limit)):
                    st.abort = 0
        self._leave()
        out = []
        i = 0
        legal_left = legal
        while legal_left:
            card = lowest_card(legal_left)
            legal_left &= legal_left - 1
            while repcards[i] < card:
                i += 1
            out.append((card, replo[i], rephi[i]))
        return out

    def move_values(self, hands, int leader, trick, int contract, int void_rule,
                    *, int64_t max_nodes=0, double deadline=0):
        """(card id, mover's value after playing it) for every legal card, ascending card id.
        Stopped by ``max_nodes`` or ``deadline``: SearchLimit, with the per-card bounds."""
        out = self.move_bounds(hands, leader, trick, contract, void_rule,
                               max_nodes=max_nodes, deadline=deadline)
        if any(lo != hi for _, lo, hi in out):
            raise SearchLimit(self._stop_reason(), out)
        return [(card, lo) for card, lo, _ in out]
