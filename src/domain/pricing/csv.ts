import { createRequire } from 'node:module';
import type * as CsvParse from 'csv-parse/sync';
import { AppError } from '../../errors.ts';

/** One record of a CSV file: its cells (trimmed) and the line it starts on (1-based), for messages. */
interface CsvRecord {
  line: number;
  cells: string[];
}

/** A CSV file read: its header (the first record, names trimmed and lower-cased) and the records after it. */
export interface CsvFile {
  header: CsvRecord | null;
  records: CsvRecord[];
}

// Loaded by the first file read: `dlv --help` loads the command modules, and only commander.
let csvParse: typeof CsvParse | null = null;
const csvLibrary = (): typeof CsvParse =>
  (csvParse ??= createRequire(import.meta.url)('csv-parse/sync') as typeof CsvParse);

/**
 * The records of a CSV file (RFC 4180, read by csv-parse): a quoted cell may hold the delimiter,
 * line breaks and doubled quotes (`"8"" box"`); spaces around a cell are dropped; blank lines and
 * lines starting with `#` are skipped; a BOM is ignored; line ends are CRLF or LF. The delimiter is
 * chosen from the header line by `delimiterOf` (a comma, or the semicolon of French spreadsheets).
 * A file that is not CSV is a 400 naming the line and the column, like the files' other errors
 * (`line 4, column 2 (zone): …`); nothing is returned then.
 */
export function readCsv(text: string, delimiterOf: (headerLine: string) => string): CsvFile {
  // One line end, so the lines counted are the lines an editor shows (csv-parse counts CRLF twice).
  const unix = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const headerLine = unix.split('\n').find((line) => !skipped(line));
  if (headerLine === undefined) return { header: null, records: [] };
  const records: CsvRecord[] = [];
  let lastLine = 0;
  try {
    csvLibrary().parse(unix, {
      delimiter: delimiterOf(headerLine),
      record_delimiter: '\n',
      trim: true,
      skip_empty_lines: true,
      comment: '#',
      // `#` starts a comment only at the start of a line: `box#2` is a value.
      comment_no_infix: true,
      // Each file says which cells a row lacks or has too many, in its own words.
      relax_column_count: true,
      on_record: (cells: string[], context) => {
        // `lines` is where the record ends: a quoted line break inside it moved it down.
        const breaks = cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
        records.push({ line: context.lines - breaks, cells: cells.map((cell) => cell.trim()) });
        lastLine = context.lines;
        return null;
      },
    });
  } catch (err) {
    throw csvSyntaxError(err, unix, records[0]?.cells, lastLine);
  }
  const [first, ...rest] = records;
  if (!first) return { header: null, records: [] };
  return { header: { line: first.line, cells: first.cells.map((h) => h.toLowerCase()) }, records: rest };
}

function skipped(line: string): boolean {
  const start = line.trimStart();
  return start === '' || start.startsWith('#');
}

interface CsvParseError {
  code?: string;
  lines?: number;
  index?: number;
}

/** csv-parse's refusal as the file's other errors say theirs: where (line, column) and what to do. */
function csvSyntaxError(
  err: unknown,
  text: string,
  header: readonly string[] | undefined,
  /** Where the last record read ends (0: none was). */
  lastLine: number,
): unknown {
  const { code, lines, index } = err as CsvParseError;
  if (typeof code !== 'string' || !code.includes('QUOTE')) return err;
  const column = (i: number | undefined) =>
    i === undefined ? '' : `, column ${i + 1}${header?.[i] ? ` (${header[i]!.toLowerCase()})` : ''}`;
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    // The quote opened in the record after the last one read: its first line that is not skipped.
    const all = text.split('\n');
    let line = lastLine + 1;
    while (line <= all.length && skipped(all[line - 1]!)) line++;
    return new AppError(
      'invalid_request',
      `line ${line}: a quoted cell is never closed (the double quote that opens it has no closing one)`,
    );
  }
  const where = `line ${lines ?? '?'}${column(index)}`;
  if (code.includes('OPENING')) {
    return new AppError(
      'invalid_request',
      `${where}: a double quote inside a cell that does not start with one; quote the whole cell and double the quotes inside it ("8"" box")`,
    );
  }
  return new AppError(
    'invalid_request',
    `${where}: text after the closing quote of a quoted cell; a quote inside a quoted cell is doubled ("")`,
  );
}
