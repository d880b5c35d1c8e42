/**
 * Every size limit, budget and cache bound of dab, declared once, each with the reason for its number.
 * A limit is what keeps a huge board, a hopeless position or a hostile file from costing unbounded
 * time or memory; beyond a budget a value is reported unknown (never guessed). The engine, the server
 * and the CLI all read them here.
 */

// ---------------------------------------------------------------------------------------------
// Boards and notation

/** Smallest board side, in boxes. */
export const MIN_SIDE = 1;
/**
 * Largest board side, in boxes, as the notation defines it (docs/notation.md: each side 1..12): real
 * games are played on 5x5 and smaller, exact search ends long before 12x12, and a larger size in a
 * file is an error, never a huge allocation. Dot columns keep one letter each (a..m).
 */
export const MAX_SIDE = 12;
/** Most boxes a board has (MAX_SIDE x MAX_SIDE): sizes the endgame analysis' scratch arrays. */
export const MAX_BOXES = MAX_SIDE * MAX_SIDE;

/** The parser reports at most this many problems, then one line saying the rest are not shown. */
export const MAX_DIAGNOSTICS = 2000;
/** Per entry, the model reports at most this many problems, then one summary. */
export const MAX_MODEL_DIAGNOSTICS = 500;
/**
 * Problems of one repeated kind each get a diagnostic up to this many, then one summary: moves after
 * the end of a game, rows of a `.dbl` file drawing a line again.
 */
export const MAX_REPORTS_OF_A_KIND = 20;
/**
 * Components of an endgame entry after repeats (`6l^9`): the closed form would take more, but the
 * document model keeps one object per component.
 */
export const MAX_COMPONENTS = 200_000;
/**
 * Components of all the endgame entries of one file together, after repeats: each expanded
 * component costs its objects in the parse and the model (about 200 bytes), so without this bound a
 * 325 KB file of 4,000 `3^5000 + 4l^5000` entries took 2 GB. Entries past it are refused with an error.
 */
export const MAX_FILE_COMPONENTS = 1_000_000;
/** Rows of a `.dbl` file read; the rest are refused with one error (a 12x12 board has 312 lines). */
export const MAX_DBL_ROWS = 10_000;
/**
 * An endgame's `play`: the steps analysed times its components at most (each analysed step keeps and
 * values the list of what is left). A real endgame has tens of components and steps; a file with
 * 200,000 components and 100,000 steps would take hours and the memory of 10^10 components.
 */
export const MAX_ENDGAME_PLAY_WORK = 4_000_000;
/** Parentheses deeper than this are refused: keeps the recursion of the expansion shallow. */
export const MAX_GROUP_DEPTH = 32;
/**
 * Variations nested deeper than this are refused (their parentheses are ignored): the model and
 * the analysis walk variations recursively, and no commentary goes near this depth.
 */
export const MAX_VARIATION_DEPTH = 100;

// ---------------------------------------------------------------------------------------------
// Endgame theory

/**
 * Sub-multisets the exact endgame recursion may tabulate before it answers "unknown": 2 million
 * entries are a few hundred MB at worst and a few seconds; the closed form covers the large simple cases.
 */
export const RECURSION_MAX_STATES = 2_000_000;
/** Values of unopened parts with 1- and 2-chains kept by the board endgame analysis (cleared when full). */
export const SHORT_CHAIN_CACHE_ENTRIES = 50_000;

// ---------------------------------------------------------------------------------------------
// Nimstring: budgets are regions evaluated (memo misses) per call; beyond it the nim-value is unknown.

/**
 * Default budget of a Nimstring call (tests, benches, callers that pass none): a few seconds at worst,
 * enough for every position of a 5x5 midgame in the bench.
 */
export const NIM_BUDGET_DEFAULT = 250_000;
/**
 * The editor's quick Nimstring view of positions that need no search (loony endgames), computed on
 * the server's main thread while typing: small, so a keystroke never waits on it. (5,000 until the
 * graph engine became the default, stop 46: its regions cost about twice as much, 1.2 times since
 * stop 47, and decide two to three times as much, so half the regions keep the time.)
 */
export const NIM_BUDGET_QUICK = 2_500;
/**
 * Per position searched by the CLI, after its solve, in process, within the record's budget (at most
 * one position's time). On the bench's ten records (default budgets) the earliest chain-fight verdict
 * was at median ply 20.5 with 20,000 (and 100 after a failure), 19 with 100,000 (and 20,000), the
 * first proven result at median ply 18 either way (stop 44: the CLI's proveDocument in process, as
 * `npm run bench` runs dab analyze, whose columns these are); 19.0 with the graph engine (stop 46,
 * 19.5 with the cell engine in the same runs), the position's time limit binding first.
 */
export const NIM_BUDGET_CLI = 100_000;
/**
 * The CLI's Nimstring budget for positions earlier than one whose chain fight was not decided: less,
 * but not nothing, since a lost chain fight is much harder to prove than a won one and the position
 * before a hard one may be easy. Also the budget of positions the record's loop does not search,
 * with no time limit. (20,000 until the graph engine, as NIM_BUDGET_QUICK.)
 */
export const NIM_BUDGET_CLI_PROBE = 10_000;
/**
 * Per position searched by the server's background search, after an attempt (its budget grows with
 * the attempts up to this cap, and the per-document background budget bounds the whole): off the
 * main thread, so larger than the CLI's. Stop 47: 300,000 regions, in the time 200,000 took before
 * the graph engine was made 1.45 times as fast (on plies 17-19 of the bench's ten records, each
 * with a cold memo: 20 of 30 positions decided, earliest per record median 17.5, 181 s in all; with
 * 200,000, 18 of 30, median 18, 135 s). Stop 46 (graph engine, 200,000): 20 of 30 with the memo the
 * worker shares; the cell engine 15 of 30.
 */
export const NIM_BUDGET_WORKER = 300_000;
/**
 * The work, in positions, the editor reads and analyses per document (readDab's ReadOptions.maxWork:
 * a written move is one position, an endgame entry about 30): every edit re-reads and re-analyses
 * the whole text on the server's main thread, about 60 µs and a few KB per position, so this bounds
 * a keystroke's wait (about 0.6 s, plus the parse: about 0.1 s per MB) and the memory of a huge file.
 */
export const EDITOR_MAX_POSITIONS = 10_000;
/**
 * The entries the editor reads at all per document (ReadOptions.maxEntries): those past its
 * positions are not analysed, but the outline and the folding list them. Bounds the memory and the
 * answers of a file of bare headers (found by an audit: a million of them took 4 GB and left lenses
 * and symbols unanswered): about 2 KB an entry left out.
 */
export const EDITOR_MAX_ENTRIES = 50_000;
/**
 * The language server reads the proof store's records of a document's positions in slices of this
 * many milliseconds, between requests (a read is about 0.5 ms: 10,000 positions at once kept every
 * request waiting for seconds).
 */
export const STORE_READ_SLICE_MS = 20;
/**
 * The work, in positions, dab analyze and dab check read per file (as EDITOR_MAX_POSITIONS): the
 * analysis of a file is kept until it is printed, a few KB per position, so this bounds a file's
 * memory (found by an audit: a 7.5 MB file of 3,584 12x12 records, 1.1 million positions, ran out of
 * memory; at the bound it takes 12 s and 2.3 GB with --no-search). Above MAX_COMPONENTS +
 * ENDGAME_WORK, so that any endgame entry is read.
 */
export const CLI_MAX_POSITIONS = 250_000;
/** Entries memoized across Nimstring calls (the shared cache: values, zero-test wins, canonical keys); cleared when full so memory stays bounded. */
export const NIM_CACHE_ENTRIES = 500_000;
/**
 * Characters of keys the Nimstring memo holds at most (NimCache.maxChars; a key is a region's text,
 * longer on larger boards): with the entry count alone a 12x12 record's memo passed 200 MB.
 */
export const NIM_CACHE_KEY_CHARS = 16_000_000;
/** The server's memo of quick Nimstring views, by position; cleared when full. */
export const NIM_QUICK_MEMO_ENTRIES = 20_000;

// ---------------------------------------------------------------------------------------------
// Search results kept (each holds every move's value); the oldest are dropped first.

/**
 * In the server: what is known about each searched position (results only tighten). The positions
 * of a few open records and their alternatives; old entries no document needs are dropped first.
 */
export const SEARCH_KNOWN_ENTRIES = 20_000;
/** In the CLI: a folder of records shares positions across files, so it keeps more. */
export const CLI_SEARCH_CACHE_ENTRIES = 20_000;

/**
 * A search worker's JavaScript heap at most (its old generation, MiB): the Nimstring views of large
 * boards make garbage fast, and with room to grow the heap a 12x12 record's worker took the server to
 * 444 MiB (its live data stays under 50 MiB); at 192 the collector runs sooner. (128 gave no less
 * memory and more collection.) The solver's table is outside the heap.
 */
export const WORKER_HEAP_MB = 192;
/**
 * The editor's memory beyond an idle server, per search worker, besides its table
 * (`dab.search.tableMb`): the worker's JavaScript heap (WORKER_HEAP_MB), its engine and Nimstring
 * memo, and the main thread's share. Measured with the defaults on 2 cores (idle server 55 MiB, one
 * worker, 32 MiB table): a 60-move 5x5 record peaked at 215-236 MiB, a 150-move 12x12 record at
 * 304-345 MiB (444 before WORKER_HEAP_MB), and at 361-367 MiB on 2 MiB pages (the VS Code client
 * starts the server with them, shared/hugePages.ts: glibc's arenas then grow by 2 MiB at a time), so
 * 280 became 320. test/protocol/memory.test.ts holds the server to it; the README states it.
 */
export const SERVER_WORKER_OVERHEAD_MB = 320;

// ---------------------------------------------------------------------------------------------
// The board: play it out, pictures

/**
 * "Play it out": nodes and time for one engine reply. The request runs on the server's main thread
 * while the user waits for the answer to appear; 200k nodes (~0.2-0.5 s) proves the reply in the
 * late middle game and endgame of a 5x5 record, and without a proof nothing is written.
 */
export const REPLY_NODE_BUDGET = 200_000;
export const REPLY_TIME_BUDGET_MS = 1500;
/**
 * A ```dab block in the Markdown preview: search time for the whole block. markdown-it renders
 * synchronously in VS Code's extension host, so the preview (and the host) waits for it; beyond it
 * values are drawn as unknown. Results are cached by block text.
 */
export const MARKDOWN_BLOCK_BUDGET_MS = 1500;
/**
 * The blocks of one render of a Markdown document share this much search time: a document of many
 * blocks would otherwise hold the extension host for 1.5 s a block (found by an audit: 70 blocks,
 * over a minute). Blocks past it are drawn with what needs no search, labelled, and drawn again at
 * the next render (typing in the document), which finds the earlier ones cached.
 */
export const MARKDOWN_DOCUMENT_BUDGET_MS = 6000;
/** Blocks drawn less than this apart belong to one render of a document (markdown-it draws them in a row). */
export const MARKDOWN_RENDER_GAP_MS = 1000;
/**
 * Pictures of ```dab blocks kept (by block text; the least recently drawn go first), so typing
 * elsewhere does not search again: enough for the blocks of the documents a user has open.
 */
export const MARKDOWN_BLOCK_CACHE_ENTRIES = 256;
/** `dab render`: default search time for the whole entry drawn. */
export const RENDER_BUDGET_MS_DEFAULT = 10_000;

// ---------------------------------------------------------------------------------------------
/** Threads of one solver (--threads, the editor's search threads): more than any machine we expect. */
export const MAX_SOLVER_THREADS = 64;
/**
 * Threads of one solver when none is asked for (every core up to this). Helper threads do not
 * repeat each other's work: they defer the moves another thread is searching (SearchingNow,
 * table.ts); on four 4x4 positions with 32 undrawn lines, 3 and 4 threads searched 3% and 5-9% more
 * nodes in all than 2. Whether they are faster could not be measured on the 2-core machines dab is
 * tested on, and each thread costs a worker's memory (the editor's dab.search.threads statement
 * counts 2): so 2, until a gain beyond two cores is measured.
 */
export const DEFAULT_SOLVER_THREADS_MAX = 2;

/**
 * `dab cache import`: time to prove each imported record again, per window search (--verify-ms).
 * A file's records are never believed on its word: one not proven again within it is rejected.
 */
export const IMPORT_VERIFY_MS = 2_000;
/**
 * `dab cache import`: time to prove the whole file's records again (--verify-total-ms). Each record
 * may take three searches of IMPORT_VERIFY_MS, so without it a file of hard records would run for
 * hours (found by an audit); the records left when it runs out are rejected, and importing the file
 * again goes on from them (the records imported are skipped as already known).
 */
export const IMPORT_VERIFY_TOTAL_MS = 600_000;

/**
 * The largest file the CLI reads (bytes): a record's moves take about 60 bytes of memory per byte
 * of text when replayed (1 million moves, 6 MB, take 1.3 GB); beyond this a file is refused with
 * a message rather than run out of memory.
 */
export const MAX_FILE_BYTES = 8_000_000;

// The CLI's search time (defaults of --budget-ms and --record-budget-ms).

/** Per position: the result first, then the margin; beyond it the value is unknown with proven bounds. */
export const CLI_POSITION_BUDGET_MS = 5_000;
/** Per record: a 60-move 5x5 record is done in about this long (positions proven from the end backwards). */
export const CLI_RECORD_BUDGET_MS = 25_000;
