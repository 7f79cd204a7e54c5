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
#   trick still separate runs); the void rules' forced trumps come from legal_mask (under
#   the overtrump rule the ruff the third hand must beat is then relevant: _overtrump_rel);
#   and once a move fails to cut, the mover's other cards of its suit below the suit's
#   lowest relevant card are answered too (_small_twins);
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
#   if the third hand cannot beat it), in no-tricks fitted weights first; in trump and
#   no-trump a cut-off cache's card first (the lead that last cut from the leader's hand,
#   the card that last cut with the same cards of the suit led in play);
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
    CUT_BITS = 16            # log2 of the cut-off cache's entries (Solver.st.cut)

cdef double GROW_MARGIN = 2.0  # seconds a deadline must be away for the table to grow


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
# bytes an entry instead of 40, so that more entries fit, as the heavy no-tricks deals are
# bound by the table's room (docs/solver.md, Log: table).
cdef struct TTEntry:
    uint64_t key            # bits 0-51 and 63: the position's key without the top owners
                            # (CHECK, see _boundary_key); 52-56: lower bound on f; 57-61:
                            # upper (f is at most 16); 62: unused
    uint64_t h0             # bits 0-47: relative-rank hand of seat 0, masked to the exact
                            # cards; 48-63: k_s in bits 48 + 4s (the exact cards of suit s
                            # are its top k_s)
    uint64_t h1             # bits 0-47: same for seat 1; 48-55: the leader's best move,
                            # suit * 16 + cards in play above it; 56-61: log2 of the nodes
                            # spent on the entry; 62-63: the generation of the search that
                            # last stored or used it (both decide replacement, _tt_store)


cdef extern from *:
    """
    #define TS_CHECK (((((uint64_t)1) << 52) - 1) | (((uint64_t)1) << 63))
    #define TS_HAND ((((uint64_t)1) << 48) - 1)
    """
    const uint64_t CHECK "TS_CHECK"     # the key bits an entry keeps
    const uint64_t HAND "TS_HAND"       # the relative-rank bits of h0 and h1


cdef inline int _e_lo(const TTEntry* e) noexcept nogil:
    return (e.key >> 52) & 31


cdef inline int _e_hi(const TTEntry* e) noexcept nogil:
    return (e.key >> 57) & 31


cdef inline int _e_best(const TTEntry* e) noexcept nogil:
    return (e.h1 >> 48) & 255


cdef inline int _e_work(const TTEntry* e) noexcept nogil:
    return (e.h1 >> 56) & 63


cdef inline void _e_touch(TTEntry* e, uint64_t gen) noexcept nogil:
    """Mark an entry as used by the current search (generation gen, see SolverState)."""
    e.h1 = (e.h1 & ~(<uint64_t>3 << 62)) | gen


cdef inline uint64_t _code_mask(int code, const uint64_t* ends, uint64_t total) noexcept nogil:
    """The relative-rank mask of an entry's exact cards from its k_s (code). ends[s] is the
    bit just above suit s in the probe's layout and total their sum: the top k_s ranks of
    suit s are ends[s] - (ends[s] >> k_s)."""
    return (total - (ends[0] >> (code & 15)) - (ends[1] >> ((code >> 4) & 15))
            - (ends[2] >> ((code >> 8) & 15)) - (ends[3] >> (code >> 12)))


cdef struct Table:
    # The transposition table's memory, shared by the solvers that search it (a Solver and
    # its helpers): counted in C, not by Python references between the solvers, so that a
    # solver dropped with its helpers frees it with no reference cycle to wait for.
    TTEntry* tt
    uint32_t* heads         # see SolverState.heads
    uint64_t* check         # see SolverState.check
    uint64_t buckets
    uint64_t grow_to        # see SolverState.grow_to: every solver on the table grows it so far
    uint16_t epoch          # see SolverState.epoch
    int users               # solvers on this table; the last one frees it


# Threads searching one value together (a Team, _solver_team.pxi): what their finished
# tests proved, per value, and the moves each is searching now.
cdef enum:
    TEAM_SLOTS = 67          # a value per card id (move_bounds), and one per player (64 + P)
    BUSY_BITS = 12           # log2 of the entries of the team's table of moves in search
    TEAM_MEMBERS = 8         # threads of a team that pass on their answers (_team_answered);
                             # a team's further threads search without them


cdef struct TeamState:
    uint32_t lo[TEAM_SLOTS]  # the value is at least lo and at most hi (hi 255: unknown)
    uint32_t hi[TEAM_SLOTS]
    uint32_t gen             # the team's generation (SolverState.gen): one more whenever a
                             # thread's test narrows a value
    uint64_t position        # a hash of the position the team searches (0: none yet)
    uint64_t busy[1 << BUSY_BITS]   # hashes of (position, move) being searched (_team_put_off)
    uint64_t member[TEAM_MEMBERS]   # the search states of the team's threads (0: free)
    uint64_t path[TEAM_MEMBERS][17] # per thread and tricks left: the lead node of at least
                                    # DEFER_FROM tricks it is searching (_answer_key), or 0
    uint64_t unwind[TEAM_MEMBERS]   # per thread: a node on its path another thread has
                                    # answered (_team_answered), or 0


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
                            # 1 in trump and no-trump (the fewest, so that an entry covers
                            # the most positions); in no-tricks the entries of one
                            # coarse position are many more and overflow their bucket
                            # unless spread by the top cards. The top three rather than
                            # two help the heavy, table-bound deals for a small cost on
                            # typical ones (docs/solver.md, Log: table)
    uint64_t meta           # key bits: player, contract, void rule (leader added per node;
                            # see Solver._set_player)
    int64_t nodes
    int hist[2][64]         # cutoff history per side (0: P, 1: the pair) and card
    int killer[17][3]       # per tricks left and leader: the last lead that cut after the
                            # first lead of the order failed (-1: none)
    uint32_t* cut           # the cut-off cache (_cut_slot), trump and no-trump only: 1 <<
                            # CUT_BITS entries, each the top 24 bits of its key's hash << 8 |
                            # the card that last cut at a node of that key; each solver has
                            # its own, also when threads share the table
    int64_t check_at        # the next check (signals, clock, node limit, progress)
    int64_t check_every     # nodes between checks (Solver's check_every)
    int64_t node_limit      # stop (abort 2) once nodes reach this; 0: no limit
    double deadline         # stop (abort 3) once time.monotonic() reaches this; 0: none
    int abort               # 1: a signal (Ctrl-C) or an error in progress, 2: the node
                            # limit, 3: the deadline (4: move_bounds skips a card, 5: the
                            # table is to grow, then the test runs again, 6: another thread
                            # of the team decided the test, 8: another thread answered a
                            # lead node this one is inside, which then takes its answer:
                            # st.unwind_n)
    int cur_lo              # f >= cur_lo and f <= cur_hi: what _solve_value's finished
    int cur_hi              # tests proved (its answer when stopped)
    int cur_card            # the card being valued (move_bounds), -1 for a player's value
    int cur_won             # 1 when that card completes a trick its player wins: added to
                            # the bounds reported to progress (f counts from the next trick)
    PyObject* progress      # called as progress(nodes, card, lo, hi) at each check; or NULL
    int stop_requested      # set by Solver.stop() from another thread: stop at the next
                            # check like at a deadline (abort 3)
    Table* table            # the table searched; tt, heads, tt_buckets and epoch are its
                            # values, copied here for the search's loads
    TTEntry* tt
    uint32_t* heads         # per bucket: the table's epoch when it was last written (an
                            # older bucket counts as empty) << 16 | how many entries are
                            # live. Apart from the entries (85 KB for 64 MB, so they stay
                            # in cache), they tell the probe where its scan starts, and
                            # that line is fetched ahead while the quick bounds run
    uint64_t* check         # once threads have shared the table, each entry's check word
                            # (_e_check of its words, the generation bits left out), written
                            # after its words: every read that decides or merges compares it
                            # (_checked), so an entry half written by another thread counts
                            # as absent; NULL for a table only one thread ever searched
    uint64_t tt_buckets
    uint64_t grow_to        # buckets the table may grow to (_tt_grow); tt_buckets: fixed
    int64_t evicted         # entries of the current test a full bucket gave up, this value
    int64_t grow_at         # ... at which the table grows (abort 5); 0: it does not
    int grow_here           # 1: _solve_value grows the table itself; 0: the search stops
                            # (abort 5) for the caller to grow it (a table threads share)
    int shared              # 1 while other threads use the same table (Solver.share): the
                            # generation bits are set by compare-and-swap (_touch)
    uint64_t gen            # the generation of the current search (_solve_value's test),
                            # 0-3, << 62 as in TTEntry.h1
    uint16_t epoch          # bumped by Solver.clear (1..65535; the table is zeroed on wrap)
    TeamState* team         # the team this search belongs to, or NULL (one thread)
    int team_slot           # the team's slot of the value searched
    int member              # the thread's index in the team's member arrays, or -1
    int unwind_n            # with abort 8: the tricks left of the node to return to
    int team_t              # the target of the running test (stopped, abort 6, once the
                            # team has decided it)
