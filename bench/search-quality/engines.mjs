// The engines of the search-quality bench, each behind one shape:
//   build(folder) → { search(query) → Promise<string[]> }   (page paths, best first, at most 10)
// Every engine gets the same pages: one page = one document, its title and its body (the text the
// catalog holds for it, front matter removed). knowledge-kit gets them as loaded by
// `loadKnowledgeDirectory`, the peers as `{ id, title, body }`.
import { createCatalogSource, createBm25fEngine } from 'knowledge-kit/agent';
import lunr from 'lunr';
import MiniSearch from 'minisearch';

export const TOP = 10;

const HAN = /\p{Script=Han}/u;

/**
 * CJK bigrams over MiniSearch's default tokens: a token's runs of Han characters become their
 * overlapping bigrams (a run of one stays a unigram); the rest of the token is kept as a word.
 * The same function tokenizes pages and queries (MiniSearch uses `tokenize` for both).
 */
export function bigramTokenize(text) {
  const out = [];
  for (const token of MiniSearch.getDefault('tokenize')(text)) {
    if (!HAN.test(token)) {
      out.push(token);
      continue;
    }
    let run = '';
    let other = '';
    const flushRun = () => {
      const chars = [...run];
      if (chars.length === 1) out.push(chars[0]);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
      run = '';
    };
    const flushOther = () => {
      if (other.length > 0) out.push(other);
      other = '';
    };
    for (const ch of token) {
      if (HAN.test(ch)) {
        flushOther();
        run += ch;
      } else {
        flushRun();
        other += ch;
      }
    }
    flushRun();
    flushOther();
  }
  return out;
}

/**
 * knowledge-kit: `createCatalogSource(...).searchFiles`, first page of 10, lexical only. `search` is
 * the whole tool call (arguments checked, ten items with their excerpts and read actions, the next
 * page's cursor); `timed` adds the engine alone (the default engine's `search` for one page of 10,
 * its hits' IDs, no excerpt read), so the bench shows what the ranking costs beside what the tool adds.
 */
export const knowledgeKit = {
  name: 'knowledge-kit',
  languages: ['en', 'zh'],
  async build(folder) {
    let engine;
    const source = createCatalogSource(folder.loaded.catalog, {
      id: folder.name,
      files: folder.loaded.files,
      linkRoot: folder.loaded.linkRoot,
      search: (corpus) => (engine = createBm25fEngine()(corpus)),
    });
    await source.warm();
    const pathOf = folder.pathOf;
    return {
      async search(query) {
        const out = await source.searchFiles({ query, limit: TOP });
        return out.items.map((item) => pathOf(item.fileId));
      },
      timed: {
        'engine only (no excerpts)': async (query) => {
          const answer = await engine.search({
            query,
            mode: 'hybrid',
            graphDepth: 1,
            graphFanout: 10,
            rerank: false,
            limit: TOP,
            continuation: undefined,
            signal: undefined,
          });
          return answer.hits.map((hit) => pathOf(hit.fileId));
        },
      },
    };
  },
};

function miniSearch(name, options) {
  return {
    name,
    languages: ['en', 'zh'],
    async build(folder) {
      const index = new MiniSearch({ fields: ['title', 'body'], ...options });
      index.addAll(folder.pages);
      return {
        async search(query) {
          return index
            .search(query)
            .slice(0, TOP)
            .map((r) => r.id);
        },
      };
    },
  };
}

/** MiniSearch with its default options (OR of terms, no fuzzy, no prefix, BM25+). */
export const miniSearchDefault = miniSearch('MiniSearch, default', {});

/** MiniSearch with CJK bigrams as its tokenizer (pages and queries alike). */
export const miniSearchBigrams = miniSearch('MiniSearch, CJK bigrams', {
  tokenize: bigramTokenize,
});

/**
 * MiniSearch with a title boost (`searchOptions.boost.title` 2, the boost its documentation shows)
 * and CJK bigrams as its tokenizer (on text without Han characters, the same tokens as its default).
 */
export const miniSearchTitleBoost = miniSearch('MiniSearch, title boost', {
  tokenize: bigramTokenize,
  searchOptions: { boost: { title: 2 } },
});

/**
 * lunr 2 with its English pipeline (stop words, Porter stemmer). The query is built term by term
 * from lunr's own tokenizer (an OR of terms), so that `:`, `-`, `~`, `^` and `*` in a question are
 * words and not query syntax. lunr has no Chinese: it is not run on Chinese folders ('—').
 */
export const lunrEngine = {
  name: 'lunr',
  languages: ['en'],
  async build(folder) {
    const index = lunr(function () {
      this.ref('id');
      this.field('title');
      this.field('body');
      for (const page of folder.pages) this.add(page);
    });
    return {
      async search(query) {
        const tokens = lunr.tokenizer(query);
        return index
          .query((q) => {
            for (const token of tokens) q.term(token.toString(), {});
          })
          .slice(0, TOP)
          .map((r) => r.ref);
      },
    };
  },
};

/**
 * PostgreSQL full text in PGlite: a `tsvector` per page with the `simple` configuration (title
 * weighted A, body D), a GIN index, `ts_rank_cd`. The query is the OR of the lexemes PostgreSQL's
 * own parser finds in it (`plainto_tsquery` would AND every word, which no question survives).
 * For Chinese, pages and queries are given as CJK bigrams (the `simple` parser has no CJK).
 * `undefined` when `@electric-sql/pglite` cannot be loaded.
 */
export async function pgliteEngine() {
  let PGlite;
  try {
    ({ PGlite } = await import('@electric-sql/pglite'));
  } catch {
    return undefined;
  }
  const db = await PGlite.create();
  let table = 0;
  return {
    name: 'PostgreSQL FTS (PGlite)',
    languages: ['en', 'zh'],
    async build(folder) {
      const name = `pages_${++table}`;
      const prepare = folder.lang === 'zh' ? (t) => bigramTokenize(t).join(' ') : (t) => t;
      await db.exec(`create table ${name} (path text primary key, tsv tsvector not null)`);
      for (const page of folder.pages)
        await db.query(
          `insert into ${name} values ($1, setweight(to_tsvector('simple', $2), 'A') || setweight(to_tsvector('simple', $3), 'D'))`,
          [page.id, prepare(page.title), prepare(page.body)],
        );
      await db.exec(`create index ${name}_tsv on ${name} using gin (tsv)`);
      const sql = `with q as (
          select to_tsquery('simple', coalesce(string_agg(quote_literal(l), ' | '), '')) as q
          from unnest(tsvector_to_array(to_tsvector('simple', $1))) as l)
        select path from ${name}, q where tsv @@ q.q
        order by ts_rank_cd(tsv, q.q) desc, path limit ${TOP}`;
      return {
        async search(query) {
          const result = await db.query(sql, [prepare(query)]);
          return result.rows.map((r) => r.path);
        },
      };
    },
    close: () => db.close(),
  };
}

/**
 * knowledge-kit's PostgreSQL store on PGlite: each folder published (`publishKnowledge`, the search
 * index as rows) and searched by `createPostgresSource` on its stored index (`searchTermStore`), first
 * page of 10. Its ranking is the in-memory engine's, so its figures must equal `knowledge-kit`'s.
 * `undefined` when `@electric-sql/pglite` cannot be loaded.
 */
export async function pgliteStoreEngine() {
  let PGlite;
  try {
    ({ PGlite } = await import('@electric-sql/pglite'));
  } catch {
    return undefined;
  }
  const { createPostgresSource, migrateKnowledgeStore, publishKnowledge } =
    await import('knowledge-kit/postgres');
  const db = await PGlite.create();
  await migrateKnowledgeStore(db);
  let count = 0;
  return {
    name: 'knowledge-kit, PostgreSQL store (PGlite)',
    languages: ['en', 'zh'],
    async build(folder) {
      const knowledgeBase = `kb-${++count}`;
      await publishKnowledge(db, {
        knowledgeBase,
        catalog: folder.loaded.catalog,
        files: folder.loaded.files,
      });
      const source = createPostgresSource(db, { knowledgeBase, id: folder.name });
      const pathOf = folder.pathOf;
      return {
        async search(query) {
          const out = await source.searchFiles({ query, limit: TOP });
          return out.items.map((item) => pathOf(item.fileId));
        },
      };
    },
    close: () => db.close(),
  };
}
