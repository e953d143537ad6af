//! Spreadsheets: a session's hands as a sheet of one row per action (import and export, the same
//! columns), and standings and hand lists as CSV tables. The sheet format is in the README.

use super::aggregates;
use super::db::{self, Tx};
use super::model::*;
use super::repo;
use super::standings::{Standings, generation};
use super::{Result, StoreError};
use crate::cards::Card;
use crate::engine::{FieldError, Game, MatchState, Options, Seat, Side, Table};
use crate::record::{Action, AnyVerb, HandRecord, MAX_ACTIONS};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use validator::Validate;

/// The sheet's columns. `action` is `sit` (value: a player's name), `deal` or one of the card
/// fields of the record beside the deal (`SHEET_CARDS`; value: cards separated by spaces),
/// `cut_card` (value: its position), or one of the game's verbs (value: its JSON value, or text).
pub const SHEET_COLUMNS: [&str; 6] = ["match", "hand", "dealer", "seat", "action", "value"];
const MATCH: usize = 0;
const HAND: usize = 1;
const DEALER: usize = 2;
const SEAT: usize = 3;
const ACTION: usize = 4;
const VALUE: usize = 5;

/// The record's fields beside the deal that a sheet lists as cards (a hand dealt several times,
/// `deals`, has no sheet form yet).
const SHEET_CARDS: [&str; 4] = ["face_up", "stock", "second_stock", "shoe"];

/// Most rows (after the header) one sheet may hold: about 4,000 hands of Malilla. An export page
/// holds no more, so that every page imports.
pub const MAX_ROWS: usize = 200_000;

/// Most bytes one sheet may hold (the import reads no more); an export page holds no more.
pub const MAX_SHEET: usize = 8 * 1024 * 1024;

/// A cell of the sheet, for problems: its line (the header is line 1) and column.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    line: u64,
    column: usize,
}

impl Cell {
    fn at(self, column: usize) -> Cell {
        Cell { column, ..self }
    }

    fn problem(self, detail: impl Into<String>) -> FieldError {
        let mut e = FieldError::new(
            format!("/rows/{}/{}", self.line, SHEET_COLUMNS[self.column]),
            detail.into(),
        );
        e.row = Some(self.line);
        e.column = Some(self.column as u64 + 1);
        e
    }
}

/// The header's cell, where a problem of the whole sheet is put.
const HEADER: Cell = Cell { line: 1, column: 0 };

/// One hand as read from the sheet, with where each part came from.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct HandDraft {
    number: u32,
    first: Cell,
    dealer: Option<Seat>,
    /// Each seat's cards. Lists, not maps: a few entries, and a map's node is several times their
    /// size, for every hand of a sheet.
    deal: Vec<(Seat, Vec<Card>, Cell)>,
    /// The `SHEET_CARDS` fields given, by name.
    undealt: Vec<(&'static str, Vec<Card>, Cell)>,
    cut_card: Option<(u32, Cell)>,
    actions: Vec<SheetAction>,
    /// The text of the actions' `CellValue::Text` values, one after another.
    texts: String,
}

/// An action as a sheet gives it. A sheet's hands are all read (and their digests made, for the
/// repeat check) before the first is judged, and each hand's record is made only when it is
/// judged: held as a record's actions (`Action`, its verb and text value each on the heap), a
/// sheet of 2,000 hands took over ten megabytes more (issue 26, target 7).
#[cfg_attr(test, derive(Debug, PartialEq))]
struct SheetAction {
    seat: Seat,
    /// The sheet's line, for a problem.
    line: u64,
    /// One of the game's verbs.
    verb: &'static str,
    value: CellValue,
}

/// A verb's value in a cell: a number or `true`/`false` where the verb takes one, else text (a
/// card). Read as `serde_json` reads it, text where it does not read.
#[cfg_attr(test, derive(Debug, PartialEq))]
enum CellValue {
    /// At this range of the hand's `texts`.
    Text(u32, u32),
    Json(Box<serde_json::Value>),
}

/// A `CellValue` with its text, written as the record's value is.
enum CellValueRef<'a> {
    Text(&'a str),
    Json(&'a serde_json::Value),
}

impl serde::Serialize for CellValueRef<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            CellValueRef::Text(text) => s.serialize_str(text),
            CellValueRef::Json(value) => value.serialize(s),
        }
    }
}

/// Whether a trimmed cell can be JSON at all: it starts a JSON value, and where that is a number,
/// holds nothing a number cannot. Most cells are cards (`QS`, `7S`), which this tells apart
/// without a failed parse (`serde_json` makes an error for each).
fn may_be_json(cell: &str) -> bool {
    match cell.as_bytes().first() {
        Some(b'{' | b'[' | b'"' | b't' | b'f' | b'n') => true,
        Some(b'-' | b'0'..=b'9') => cell
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')),
        _ => false,
    }
}

impl HandDraft {
    /// Adds an action, its value read from `text` (see `CellValue`).
    fn push(&mut self, seat: Seat, cell: Cell, verb: &'static str, text: &str) {
        let json = may_be_json(text).then(|| serde_json::from_str(text).ok());
        let value = match json.flatten() {
            Some(json) => CellValue::Json(Box::new(json)),
            None => {
                let start = self.texts.len() as u32;
                self.texts.push_str(text);
                CellValue::Text(start, self.texts.len() as u32)
            }
        };
        self.actions.push(SheetAction {
            seat,
            line: cell.line,
            verb,
            value,
        });
    }

    /// Gives back what the hand's lists reserved past their length, once its rows are read.
    fn close(&mut self) {
        self.actions.shrink_to_fit();
        self.texts.shrink_to_fit();
    }

    fn value<'a>(&'a self, a: &'a SheetAction) -> CellValueRef<'a> {
        match &a.value {
            CellValue::Text(start, end) => {
                CellValueRef::Text(&self.texts[*start as usize..*end as usize])
            }
            CellValue::Json(value) => CellValueRef::Json(value),
        }
    }

    /// What identifies the hand as played (`repo::play_digest`), made without its record.
    fn digest(&self) -> Vec<u8> {
        let actions = self.actions.iter().map(|a| (a.seat, a.verb, self.value(a)));
        repo::play_digest_with(&self.record(Vec::new()), actions)
    }

    /// The hand's record.
    fn full_record(&self) -> HandRecord {
        let actions = self.actions.iter().map(|a| Action {
            seat: a.seat,
            kind: AnyVerb {
                verb: a.verb.to_string(),
                value: match self.value(a) {
                    CellValueRef::Text(text) => serde_json::Value::String(text.to_string()),
                    CellValueRef::Json(value) => value.clone(),
                },
            },
        });
        self.record(actions.collect())
    }

    /// The hand's record with `actions` as its actions.
    fn record(&self, actions: Vec<Action>) -> HandRecord {
        HandRecord {
            game: None,
            options: BTreeMap::new(),
            players: BTreeMap::new(),
            dealer: self.dealer.unwrap_or(Seat::N),
            deal: self.deal.iter().map(|(s, c, _)| (*s, c.clone())).collect(),
            face_up: self.cards("face_up"),
            stock: self.cards("stock"),
            second_stock: self.cards("second_stock"),
            shoe: self.cards("shoe"),
            cut_card: self.cut_card.map(|(n, _)| n),
            deals: Vec::new(),
            actions,
            match_state: None,
        }
    }

    /// The cards of `field` (one of `SHEET_CARDS`), none when the sheet gives none.
    fn cards(&self, field: &str) -> Vec<Card> {
        self.undealt
            .iter()
            .find(|(f, ..)| *f == field)
            .map(|(_, c, _)| c.clone())
            .unwrap_or_default()
    }

    /// Moves an engine problem (a pointer into the hand record) onto the sheet cell it came from.
    fn locate(&self, e: FieldError) -> FieldError {
        let parts: Vec<&str> = e.pointer.split('/').skip(1).collect();
        let cell = match parts.as_slice() {
            ["actions", i, rest @ ..] => i
                .parse::<usize>()
                .ok()
                .and_then(|i| self.actions.get(i))
                .map(|a| Cell {
                    line: a.line,
                    column: if rest == ["seat"] { SEAT } else { VALUE },
                }),
            ["deal", seat, ..] => seat
                .parse::<Seat>()
                .ok()
                .and_then(|s| self.deal.iter().find(|(d, ..)| *d == s))
                .map(|(.., c)| c.at(VALUE)),
            ["cut_card"] => self.cut_card.map(|(_, c)| c.at(VALUE)),
            ["dealer"] => Some(self.first.at(DEALER)),
            [field, ..] => self
                .undealt
                .iter()
                .find(|(f, ..)| f == field)
                .map(|(.., c)| c.at(VALUE)),
            _ => None,
        }
        .unwrap_or(self.first.at(HAND));
        let where_ = if e.pointer.is_empty() {
            "the hand".to_string()
        } else {
            format!("record {}", e.pointer)
        };
        cell.problem(format!("{} ({where_})", e.detail))
    }
}

/// A match in the sheet: new (it has `sit` rows) or an existing match of the session (its id).
#[cfg_attr(test, derive(Debug, PartialEq))]
struct MatchDraft {
    label: String,
    first: Cell,
    seats: BTreeMap<Seat, (String, Cell)>,
    hands: Vec<HandDraft>,
    /// The highest hand number read so far: a hand numbered above it cannot repeat one, so only a
    /// sheet whose numbers go back is searched for a hand met before.
    highest: u32,
}

impl MatchDraft {
    /// Closes the hand being read, the match's last, once a row of another hand or match, or the
    /// sheet's end, is reached.
    fn close_last_hand(&mut self) {
        if let Some(h) = self.hands.last_mut() {
            h.close();
        }
    }
}

/// What a spreadsheet runs as a formula when a cell starts with it (OWASP, "CSV injection").
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Free text (a player's or partnership's name) as a cell of an exported table: a leading `'` makes
/// a spreadsheet show a would-be formula as text. A name that starts with `'` gets one too, so that
/// `from_cell` reads back exactly the name.
fn to_cell(text: &str) -> Cow<'_, str> {
    if text.starts_with(FORMULA_STARTS) || text.starts_with('\'') {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// The inverse of `to_cell` (a name typed as `'Tis` stays as typed).
fn from_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(text) if text.starts_with(FORMULA_STARTS) || text.starts_with('\'') => text,
        _ => cell,
    }
}

fn cards(value: &str) -> std::result::Result<Vec<Card>, String> {
    // Sized once for the most cards the text can hold (a code and a space are at least three
    // bytes), not grown card by card: a sheet has several card lists a hand.
    let mut cards = Vec::with_capacity(value.len() / 3 + 1);
    for c in value.split_whitespace() {
        cards.push(c.parse::<Card>().map_err(|e| e.to_string())?);
    }
    Ok(cards)
}

/// `cell` without the spaces around it (`str::trim`), which most cells have none of: a cell
/// that starts and ends with a printable ASCII character is taken as it is, without decoding
/// its ends to test them for every kind of space.
fn trimmed(cell: &str) -> &str {
    let printable = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    let bytes = cell.as_bytes();
    if printable(bytes.first()) && printable(bytes.last()) {
        cell
    } else {
        cell.trim()
    }
}

/// The inverse of `HandDraft::push`'s reading of a value (`CellValue`).
fn cell_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The cell where a quoted value opens and never closes. A quote opens a value only at its start
/// (as the CSV reader has it); inside, `""` is a quote and a lone `"` closes it.
fn unclosed_quote(bytes: &[u8]) -> Option<Cell> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if every_quote_closes(bytes) {
        return None;
    }
    unclosed_quote_cell(bytes)
}

/// `unclosed_quote` byte by byte, counting lines and columns (the BOM taken off).
fn unclosed_quote_cell(bytes: &[u8]) -> Option<Cell> {
    let (mut line, mut column, mut at_start) = (1, 0, true);
    let mut open: Option<Cell> = None;
    let mut rest = bytes.iter().peekable();
    while let Some(&b) = rest.next() {
        let line_end = matches!(b, b'\n' | b'\r');
        if line_end {
            // A CR LF ends one line.
            if b == b'\r' {
                rest.next_if_eq(&&b'\n');
            }
            line += 1;
        }
        if open.is_some() {
            if b == b'"' && rest.next_if_eq(&&b'"').is_none() {
                open = None;
            }
            continue;
        }
        match b {
            b'"' if at_start => {
                open = Some(Cell {
                    line,
                    column: column.min(VALUE),
                })
            }
            b',' => column += 1,
            b'\n' | b'\r' => column = 0,
            _ => {}
        }
        at_start = b == b',' || line_end;
    }
    open
}

/// Whether every value `bytes` opens with a quote closes, by `unclosed_quote`'s reading, looked
/// at from quote to quote: a sheet has few (most values need none), and reading it byte by byte
/// for lines and columns was a third of reading it. Only a sheet where one does not close is
/// read again, for the cell.
fn every_quote_closes(bytes: &[u8]) -> bool {
    quoted_values(bytes).all(|value| value.is_some())
}

/// The values of `bytes` that open with a quote, by `unclosed_quote`'s reading, found from quote
/// to quote: each one's text between its quotes, or `None` for one that never closes (the last).
fn quoted_values(bytes: &[u8]) -> impl Iterator<Item = Option<&[u8]>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let quote = at + memchr::memchr(b'"', &bytes[at..])?;
            at = quote + 1;
            // A quote inside a value is a character of it.
            if quote > 0 && !matches!(bytes[quote - 1], b',' | b'\n' | b'\r') {
                continue;
            }
            // The value's closing quote: the first lone one, `""` being a quote inside.
            let open = at;
            loop {
                let Some(found) = memchr::memchr(b'"', &bytes[at..]) else {
                    at = bytes.len();
                    return Some(None);
                };
                let close = at + found;
                at = close + 1;
                if bytes.get(at) != Some(&b'"') {
                    return Some(Some(&bytes[open..close]));
                }
                at += 1;
            }
        }
    })
}

/// How many lines end in `sheet[from..to]`: a LF, a CR LF (counted at its CR) and a lone CR each
/// end one, as the reader reads them. (The reader's own count knows only LF: it put every row of
/// an old Mac's sheet on line 1.)
fn line_ends(sheet: &[u8], from: usize, to: usize) -> u64 {
    let cr = memchr::memchr_iter(b'\r', &sheet[from..to]).count();
    let lf = memchr::memchr_iter(b'\n', &sheet[from..to])
        .filter(|&at| from + at == 0 || sheet[from + at - 1] != b'\r');
    (cr + lf.count()) as u64
}

/// The lines of a sheet, counted up to each row in turn: once over the sheet, however many rows.
struct Lines<'a> {
    sheet: &'a [u8],
    /// Where the count stands.
    at: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    /// Counted up to byte `at` of `sheet`.
    fn to(sheet: &'a [u8], at: usize) -> Lines<'a> {
        let line = 1 + line_ends(sheet, 0, at);
        Lines { sheet, at, line }
    }

    /// The line of the row the reader reads next from byte `at` (its position): the reader starts
    /// a row at the line ends before it (a CR LF's LF, blank lines), which are not the row's line.
    fn of_row_at(&mut self, at: usize) -> u64 {
        let rest = self.sheet.get(at..).unwrap_or_default();
        let start = at
            + rest
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count();
        self.line += line_ends(self.sheet, self.at, start);
        self.at = start;
        self.line
    }
}

/// Reads the sheet into matches and hands, collecting every problem of shape and notation; a
/// large sheet on every core.
fn read(
    game: &dyn Game,
    table: Table,
    bytes: &[u8],
) -> std::result::Result<Vec<MatchDraft>, Vec<FieldError>> {
    read_in(game, table, bytes, super::cores())
}

/// `read`, in up to `pieces` pieces side by side.
fn read_in(
    game: &dyn Game,
    table: Table,
    bytes: &[u8],
    pieces: usize,
) -> std::result::Result<Vec<MatchDraft>, Vec<FieldError>> {
    // Cells are trimmed as they are read (`str::trim`, as `Trim::All` would, but without a
    // trimmed copy of every row).
    let mut reader = ::csv::ReaderBuilder::new().from_reader(bytes);
    if let Some(open) = unclosed_quote(bytes) {
        return Err(vec![open.problem(
            "this value opens a quote (\") that never closes: the rest of the sheet would be read \
             into it; close the quote, or double a quote inside a quoted value (\"\")",
        )]);
    }
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|c| c.trim().to_ascii_lowercase()).collect(),
        Err(e) => return Err(vec![HEADER.problem(format!("unreadable header: {e}"))]),
    };
    if header != SHEET_COLUMNS {
        return Err(vec![HEADER.problem(format!(
            "expected the header '{}', got '{}'",
            SHEET_COLUMNS.join(","),
            header.join(",")
        ))]);
    }
    let body = reader.position().byte() as usize;
    let in_pieces = (bytes.len() - body >= 2 * PIECE_BYTES)
        .then(|| read_in_pieces(game, table, bytes, body, pieces))
        .flatten();
    let (matches, mut errors) = match in_pieces {
        Some(matches) => (matches, Vec::new()),
        None => {
            let rows = read_rows(game, table, bytes, 0, &mut reader).map_err(|e| vec![e])?;
            (rows.matches, rows.errors)
        }
    };
    for m in &matches {
        for h in &m.hands {
            if h.dealer.is_none() {
                errors.push(
                    h.first
                        .at(DEALER)
                        .problem(format!("hand {} needs its dealer", h.number)),
                );
            }
        }
        if m.hands.is_empty() && !m.seats.is_empty() {
            errors.push(
                m.first
                    .at(HAND)
                    .problem(format!("match '{}' has no hands", m.label)),
            );
        }
    }
    if errors.is_empty() {
        Ok(matches)
    } else {
        Err(errors)
    }
}

/// The matches read from a run of the sheet's rows, the problems met, and how many rows there
/// were.
struct Rows {
    matches: Vec<MatchDraft>,
    errors: Vec<FieldError>,
    rows: usize,
}

/// Reads the rows `reader` has left of `sheet[from..]` (what it reads) into matches and hands,
/// each with its line in `sheet`: the problems of shape and notation row by row, each match's last
/// hand closed. Over `MAX_ROWS` rows, that limit is the one problem.
fn read_rows(
    game: &dyn Game,
    table: Table,
    sheet: &[u8],
    from: usize,
    reader: &mut ::csv::Reader<&[u8]>,
) -> std::result::Result<Rows, FieldError> {
    let verbs = game.info().verbs;
    let mut errors = Vec::new();
    let mut matches: Vec<MatchDraft> = Vec::new();
    // The matches' labels, to find a match whose rows are not together without going through
    // every match before it (a sheet of many short matches).
    let mut labels = HashSet::new();
    // One row's cells, read again for every row.
    let mut row = ::csv::StringRecord::new();
    let mut rows = 0;
    let mut lines = Lines::to(sheet, from);
    for n in 0.. {
        let at = from + reader.position().byte() as usize;
        let read = reader.read_record(&mut row);
        if matches!(read, Ok(false)) {
            break;
        }
        rows += 1;
        // Over the limit, the limit is the answer: the other rows' problems are not worth a
        // report as long as the sheet.
        if n >= MAX_ROWS {
            return Err(HEADER.problem(format!(
                "a sheet holds at most {MAX_ROWS} rows after the header: split it"
            )));
        }
        let cell = Cell {
            line: lines.of_row_at(at),
            column: 0,
        };
        if let Err(e) = read {
            errors.push(cell.problem(format!("unreadable row: {e}")));
            continue;
        }
        // The header has the six columns, so every row read after it has six cells; a piece of
        // the sheet (`read_in_pieces`) is read without it, and a row of other cells refuses it.
        if row.len() != SHEET_COLUMNS.len() {
            errors.push(cell.problem(format!("expected {} cells", SHEET_COLUMNS.len())));
            continue;
        }
        let row: [&str; 6] = std::array::from_fn(|i| trimmed(&row[i]));
        let label = row[MATCH];
        if label.is_empty() {
            errors.push(cell.at(MATCH).problem("every row names its match"));
            continue;
        }
        let seat = match row[SEAT].parse::<Seat>() {
            Ok(s) if table.resolve(s).is_some() => Some(s),
            _ => {
                errors.push(
                    cell.at(SEAT)
                        .problem(format!("expected a seat: {}", table.names())),
                );
                None
            }
        };
        if matches.last().is_none_or(|m| m.label != label) {
            if !labels.insert(label.to_string()) {
                errors.push(
                    cell.at(MATCH)
                        .problem(format!("the rows of match '{label}' must be together")),
                );
                continue;
            }
            if let Some(m) = matches.last_mut() {
                m.close_last_hand();
            }
            matches.push(MatchDraft {
                label: label.to_string(),
                first: cell,
                seats: BTreeMap::new(),
                hands: Vec::new(),
                highest: 0,
            });
        }
        let m = matches.last_mut().expect("pushed above");
        let (action, value) = (row[ACTION], row[VALUE]);
        if action == "sit" {
            if !row[HAND].is_empty() || !m.hands.is_empty() {
                errors.push(
                    cell.at(HAND)
                        .problem("'sit' rows come before the match's hands, with an empty hand"),
                );
            } else if value.is_empty() {
                errors.push(cell.at(VALUE).problem("a 'sit' row names the player"));
            } else if let Some(s) = seat
                && m.seats
                    .insert(s, (from_cell(value).to_string(), cell))
                    .is_some()
            {
                errors.push(cell.at(SEAT).problem(format!("{s} is seated twice")));
            }
            continue;
        }
        let number = match row[HAND].parse::<u32>() {
            Ok(h) if h >= 1 => h,
            _ => {
                errors.push(
                    cell.at(HAND)
                        .problem("expected the hand's number in the match (1, 2, ...)"),
                );
                continue;
            }
        };
        if m.hands.last().is_none_or(|h| h.number != number) {
            if number <= m.highest && m.hands.iter().any(|h| h.number == number) {
                errors.push(
                    cell.at(HAND)
                        .problem(format!("the rows of hand {number} must be together")),
                );
                continue;
            }
            m.close_last_hand();
            m.highest = m.highest.max(number);
            m.hands.push(HandDraft {
                number,
                first: cell,
                dealer: None,
                deal: Vec::new(),
                undealt: Vec::new(),
                cut_card: None,
                actions: Vec::new(),
                texts: String::new(),
            });
        }
        let h = m.hands.last_mut().expect("pushed above");
        // A hand's rows after its first may leave the dealer empty: such a cell is not parsed (a
        // failed parse makes its message, on nearly every row).
        if !row[DEALER].is_empty() {
            match (row[DEALER].parse::<Seat>(), h.dealer) {
                (Ok(d), None) if table.resolve(d).is_some() => h.dealer = Some(d),
                (Ok(d), Some(prev)) if d == prev => {}
                (Ok(d), Some(prev)) => errors.push(
                    cell.at(DEALER)
                        .problem(format!("hand {number} is dealt by {prev}, not {d}")),
                ),
                _ => errors.push(
                    cell.at(DEALER)
                        .problem(format!("expected the dealer's seat: {}", table.names())),
                ),
            }
        }
        let Some(seat) = seat else { continue };
        match action {
            "cut_card" => match value.parse::<u32>() {
                Err(_) => errors
                    .push(cell.at(VALUE).problem(
                        "expected the cut card's position: the number of cards before it",
                    )),
                Ok(n) => {
                    if h.cut_card.replace((n, cell)).is_some() {
                        errors.push(cell.at(ACTION).problem("the cut card is given twice"));
                    }
                }
            },
            "deal" | "face_up" | "stock" | "second_stock" | "shoe" => match cards(value) {
                Err(e) => errors.push(cell.at(VALUE).problem(e)),
                Ok(c) if action == "deal" => {
                    if h.deal.iter().any(|(s, ..)| *s == seat) {
                        errors.push(
                            cell.at(SEAT)
                                .problem(format!("{seat}'s deal is given twice")),
                        );
                    } else {
                        h.deal.push((seat, c, cell));
                    }
                }
                Ok(c) => {
                    let field = SHEET_CARDS.iter().find(|f| **f == action);
                    let field = field.expect("one of the card fields matched above");
                    if h.undealt.iter().any(|(f, ..)| f == field) {
                        errors.push(
                            cell.at(ACTION)
                                .problem(format!("the {action} cards are given twice")),
                        );
                    } else {
                        h.undealt.push((field, c, cell));
                    }
                }
            },
            verb if verbs.contains(&verb) => {
                if h.actions.len() == MAX_ACTIONS {
                    errors.push(
                        cell.at(ACTION)
                            .problem(format!("a hand holds at most {MAX_ACTIONS} actions")),
                    );
                    continue;
                }
                let verb = verbs.iter().find(|v| **v == verb).expect("matched above");
                h.push(seat, cell, verb, value);
            }
            other => errors.push(cell.at(ACTION).problem(format!(
                "'{other}' is not an action of {}: expected sit, deal, {}{}",
                game.info().name,
                setup_rows(game)
                    .iter()
                    .map(|(field, _)| format!("{field}, "))
                    .collect::<String>(),
                verbs.join(", ")
            ))),
        }
    }
    if let Some(m) = matches.last_mut() {
        m.close_last_hand();
    }
    Ok(Rows {
        matches,
        errors,
        rows,
    })
}

/// The least of a sheet one thread reads in `read_in_pieces`: reading it takes about a millisecond,
/// far more than starting the thread.
const PIECE_BYTES: usize = 64 * 1024;

/// The sheet's rows from byte `body` on (after the header) read in up to `pieces` pieces side by
/// side, where that reads them as `read_rows` does in one go: a sheet whose every line is a row
/// (no quoted value holds a line end; each quoted value closes), cut where one match's rows end
/// and another's begin, every piece read without a problem, no match's rows in two pieces, and no
/// more rows than a sheet holds. Otherwise `None`, and the sheet is read in one go, for its
/// problems in their order.
fn read_in_pieces(
    game: &dyn Game,
    table: Table,
    bytes: &[u8],
    body: usize,
    pieces: usize,
) -> Option<Vec<MatchDraft>> {
    let more_than_a_line = |value: &[u8]| memchr::memchr2(b'\r', b'\n', value).is_some();
    if quoted_values(bytes).any(|value| value.is_none_or(more_than_a_line)) {
        return None;
    }
    let mut starts = vec![body];
    for k in 1..pieces {
        let at = body + (bytes.len() - body) * k / pieces;
        let last = *starts.last().expect("the body's start");
        match next_match_start(bytes, at.max(last)) {
            Some(start) if start > last => starts.push(start),
            _ => break,
        }
    }
    if starts.len() < 2 {
        return None;
    }
    let ends = starts[1..].iter().copied().chain([bytes.len()]);
    let runs: Vec<(usize, usize)> = starts.iter().copied().zip(ends).collect();
    let read = super::side_by_side(
        runs,
        |(start, end)| end - start,
        |(start, end)| {
            let piece = &bytes[start..end];
            let mut reader = ::csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(piece);
            read_rows(game, table, bytes, start, &mut reader).ok()
        },
    );
    let read: Vec<Rows> = read.into_iter().collect::<Option<_>>()?;
    let mut labels = HashSet::new();
    let apart = read
        .iter()
        .flat_map(|piece| &piece.matches)
        .any(|m| !labels.insert(m.label.as_str()));
    if apart
        || read.iter().any(|piece| !piece.errors.is_empty())
        || read.iter().map(|piece| piece.rows).sum::<usize>() > MAX_ROWS
    {
        return None;
    }
    Some(read.into_iter().flat_map(|piece| piece.matches).collect())
}

/// Where the first line after byte `at` begins whose first cell (a match's label) is not the
/// first cell of the line before it: where a match's rows may begin, in a sheet whose every line
/// is a row. Labels are compared as written: a label quoted on one line and not on the next cuts
/// its match in two, which `read_in_pieces` finds in two pieces.
fn next_match_start(bytes: &[u8], at: usize) -> Option<usize> {
    let label = |from: usize| {
        let line = &bytes[from..];
        let end = memchr::memchr2(b',', b'\n', line).unwrap_or(line.len());
        line[..end].trim_ascii()
    };
    let mut line = at + memchr::memchr(b'\n', &bytes[at..])? + 1;
    let mut before = memchr::memrchr(b'\n', &bytes[..line - 1]).map_or(0, |end| end + 1);
    while line < bytes.len() {
        if label(line) != label(before) {
            return Some(line);
        }
        before = line;
        line += memchr::memchr(b'\n', &bytes[line..])? + 1;
    }
    None
}

/// Imports a sheet into `session`: every match and hand, or (on any problem) nothing. Prepared and
/// published in one transaction; the server prepares on a read and publishes in a short write.
pub fn import(tx: &Tx, club: i64, session: i64, bytes: &[u8]) -> Result<ImportReport> {
    publish(tx, &prepare_import(tx, club, session, bytes.into())?)
}

/// A sheet made ready to store: read, its players found, every hand adjudicated, digested and
/// packed, against the store as one read saw it. That is nearly all of an import's work, and it
/// needs no writer: `publish` stores it in a short write, once it has checked that what the
/// preparation read still holds.
pub struct PreparedImport {
    club: i64,
    league: i64,
    game: &'static dyn Game,
    /// The league's generation when it was prepared: unchanged at publishing, nothing the
    /// preparation read has changed.
    generation: i64,
    session: i64,
    /// The sheet, to prepare again when the store moved on in between.
    sheet: Arc<[u8]>,
    matches: Vec<PreparedMatch>,
}

/// One match of a prepared sheet.
struct PreparedMatch {
    label: String,
    to: Opened,
    hands: Vec<PreparedHand>,
}

/// The match a sheet's rows go to, as the preparation found it.
enum Opened {
    /// A stored match of the session: its state as read, and its hands and stored state
    /// (`match_version`), to tell whether it changed before the sheet is published.
    Stored {
        id: i64,
        state: MatchState,
        version: (u32, String),
    },
    /// A new match: its players, each found by the name the sheet gives.
    New {
        seated: repo::SeatedMatch,
        names: Vec<(String, i64)>,
    },
}

impl Opened {
    /// The match's state and hands before the sheet's.
    fn start(&self) -> (MatchState, u32) {
        match self {
            Opened::Stored { state, version, .. } => (state.clone(), version.0),
            Opened::New { seated, .. } => (seated.fresh_state(), 0),
        }
    }
}

/// One hand of a prepared match: what its ruling writes, and the form it is stored in.
struct PreparedHand {
    number: u32,
    first: Cell,
    /// What publishing writes of its ruling besides the packed text.
    ruling: repo::RulingRows,
    form: repo::StoredForm,
}

/// Reads `sheet` and judges every hand as the next of its match, on `tx` (a read is enough): the
/// problems of the sheet, as the import answers them, or the sheet ready to `publish`.
pub fn prepare_import(
    tx: &Tx,
    club: i64,
    session: i64,
    sheet: Arc<[u8]>,
) -> Result<PreparedImport> {
    // The session named by the request's path: not found is 404, not a problem of the sheet.
    let venue = repo::Venue::at(tx, club, &repo::get_session(tx, club, session)?)?;
    let (game, options) = (venue.game(), venue.options());
    let drafts = read(game, venue.table(), &sheet).map_err(StoreError::Invalid)?;
    // Each hand's digest, for the repeat check and the store; its record is made when it is judged.
    let digests: Vec<Vec<Vec<u8>>> = super::side_by_side(
        drafts.iter().collect(),
        |m| m.hands.len(),
        |m| m.hands.iter().map(HandDraft::digest).collect(),
    );
    let played = drafts.iter().zip(&digests).flat_map(|(m, digests)| {
        m.hands
            .iter()
            .zip(digests)
            .map(move |(h, digest)| (m.label.as_str(), h.number, h.first, digest.as_slice()))
    });
    let repeats = repeated_hands(tx, session, played)?;
    if !repeats.is_empty() {
        return Err(StoreError::Repeated(repeats));
    }
    // Each match opened on `tx` (one connection, so in turn), then its hands judged, the matches
    // side by side: a match's hands follow from each other, another match's do not.
    let mut players = HashMap::new();
    let mut opened = Vec::new();
    for (m, digests) in drafts.iter().zip(digests) {
        let mut problems = Vec::new();
        let to = open_match(tx, club, &venue, &mut players, m, &mut problems)?;
        opened.push((m, digests, to, problems));
    }
    let judged = super::side_by_side(
        opened,
        |(m, ..)| m.hands.len(),
        |(m, digests, to, problems)| judge_match(game, options, m, digests, to, problems),
    );
    let mut errors = Vec::new();
    let mut matches = Vec::new();
    for j in judged {
        let (prepared, problems) = j?;
        errors.extend(problems);
        matches.extend(prepared);
    }
    if !errors.is_empty() {
        return Err(StoreError::Invalid(errors));
    }
    Ok(PreparedImport {
        club,
        league: venue.league(),
        game,
        generation: generation(tx, club, venue.league())?,
        session,
        sheet,
        matches,
    })
}

/// Match `m`'s hands judged in turn from where `to` stands (none when it could not be opened): the
/// match prepared, and its problems after those already found in `problems` (a hand that cannot be
/// judged ends the match's judging: later hands follow from it).
fn judge_match(
    game: &dyn Game,
    options: &Options,
    m: &MatchDraft,
    digests: Vec<Vec<u8>>,
    to: Option<Opened>,
    mut problems: Vec<FieldError>,
) -> Result<(Option<PreparedMatch>, Vec<FieldError>)> {
    let Some(to) = to else {
        return Ok((None, problems));
    };
    let (mut state, mut stored) = to.start();
    let mut hands = Vec::new();
    for (h, digest) in m.hands.iter().zip(digests) {
        if h.number != stored + 1 {
            problems.push(h.first.at(HAND).problem(format!(
                "{} has {stored} hand(s) stored: the next is hand {}",
                match &to {
                    Opened::Stored { id, .. } => format!("match {id}"),
                    Opened::New { .. } => format!("match '{}'", m.label),
                },
                stored + 1
            )));
            break;
        }
        let record = h.full_record();
        if let Err(e) = record.validate() {
            problems.push(h.first.at(HAND).problem(e.to_string()));
            break;
        }
        match repo::adjudicate(game, options, &state, &record, stored) {
            Ok(adjudication) => {
                stored = h.number;
                state = adjudication.match_after.clone();
                hands.push(PreparedHand {
                    number: h.number,
                    first: h.first,
                    form: repo::StoredForm::of(&record, digest, &adjudication),
                    ruling: repo::RulingRows::of(&adjudication),
                });
            }
            Err(StoreError::Invalid(e)) => {
                problems.extend(e.into_iter().map(|e| h.locate(e)));
                break; // later hands of this match depend on this one
            }
            Err(e) => return Err(e),
        }
    }
    let prepared = PreparedMatch {
        label: m.label.clone(),
        to,
        hands,
    };
    Ok((Some(prepared), problems))
}

/// From how many hands a sheet's rows are written with SQLite's triggers off. A trigger left on
/// costs a few microseconds a row; turning them off and on again makes SQLite prepare the
/// connection's statements again at their next use, about a millisecond. Measured with the league
/// bench (`LEAGUE_SHEET_HANDS`), the writer's median hold with the triggers left on against off:
/// 1.3 against 1.9 ms for sheets of 30 hands, even at 150, 5.4 against 5.1 ms at 250 and 46
/// against 38 ms at 2,000.
const TRIGGERS_OFF_FROM_HANDS: usize = 200;

/// Stores a prepared sheet. When the league's generation moved since it was prepared (a hand,
/// a match or a player's name of the league was written in between), what it read is checked
/// again: when a match it continues, or a player it names, has changed, it is prepared again here
/// first, as it would have been had it been read now; and the repeat check is made again, since
/// hands may have been stored. When the generation stands, nothing it read has changed. The
/// sheet is borrowed: its caller frees it once the write no longer holds the writer.
pub fn publish(tx: &Tx, prepared: &PreparedImport) -> Result<ImportReport> {
    let moved = generation(tx, prepared.club, prepared.league)? != prepared.generation;
    let again;
    let p = if !moved || still_holds(tx, prepared)? {
        prepared
    } else {
        again = prepare_import(tx, prepared.club, prepared.session, prepared.sheet.clone())?;
        &again
    };
    if moved {
        let digests = p.matches.iter().flat_map(|m| {
            m.hands
                .iter()
                .map(move |h| (m.label.as_str(), h.number, h.first, h.form.digest()))
        });
        let repeats = repeated_hands(tx, p.session, digests)?;
        if !repeats.is_empty() {
            return Err(StoreError::Repeated(repeats));
        }
    }
    let mut report = ImportReport {
        matches_created: BTreeMap::new(),
        hands: Vec::new(),
    };
    let now = db::now();
    // The hands are counted into the standings together, once all are stored.
    aggregates::defer_counts(tx, p.league)?;
    let mut ids = Vec::with_capacity(p.matches.len());
    for m in &p.matches {
        ids.push(match &m.to {
            Opened::Stored { id, .. } => *id,
            // Stored as it stands after the sheet's hands, which this write stores.
            Opened::New { seated, .. } => {
                let fresh;
                let (hands, state) = match m.hands.last() {
                    Some(last) => (last.number, &last.ruling.match_after),
                    None => {
                        fresh = seated.fresh_state();
                        (0, &fresh)
                    }
                };
                let id = repo::insert_match(tx, p.club, seated, hands, state)?;
                report.matches_created.insert(m.label.clone(), id);
                id
            }
        });
    }
    // Each match's state is stored once: a new match's with it, a stored match's after its last
    // hand. No hand of a match is stored after the one that ends it, so its finish is kept on
    // that hand, as hand by hand.
    let mut finishes = Vec::new();
    // The hands, and each new match's finish. While the counts are deferred, each
    // trigger on those rows only tests its `WHEN` and stops (the counts, and the league's
    // generation, move in `count_deferred`): a large sheet's are written with the triggers off.
    let mut store = || {
        for (m, &match_id) in p.matches.iter().zip(&ids) {
            for h in &m.hands {
                let at = repo::HandPlace {
                    match_id,
                    league: p.league,
                    session: p.session,
                    number: h.number,
                    created_at: &now,
                };
                report
                    .hands
                    .push(repo::store_hand(tx, &at, &h.form, &h.ruling)?);
            }
            // A new match has no finish stored: it is made from what is in hand, not read back.
            if let (Opened::New { seated, .. }, Some(last)) = (&m.to, m.hands.last()) {
                let after = &last.ruling.match_after;
                let finished_by = report.hands.last().expect("stored above").id;
                finishes.push(aggregates::first_finish(
                    tx,
                    p.league,
                    match_id,
                    after,
                    seated.sides(),
                    p.game.lowest_total_wins(),
                    finished_by,
                )?);
            }
        }
        Ok(())
    };
    if p.matches.iter().map(|m| m.hands.len()).sum::<usize>() >= TRIGGERS_OFF_FROM_HANDS {
        tx.with_idle_triggers_off(store)?;
    } else {
        store()?;
    }
    // A stored match's state, with the triggers on: they take back a finish it had.
    for (m, &match_id) in p.matches.iter().zip(&ids) {
        if let (Opened::Stored { state, .. }, Some(last)) = (&m.to, m.hands.last()) {
            let after = &last.ruling.match_after;
            finishes.push(repo::keep_match_state(
                tx,
                match_id,
                last.number,
                state,
                after,
            )?);
        }
    }
    aggregates::count_deferred(tx)?;
    // The ratings are folded once, from the earliest finish the sheet changed: folding from
    // there covers every later one, in the same order.
    if let Some(from) = finishes.into_iter().flatten().map(|(_, from)| from).min() {
        aggregates::rerate(tx, p.league, from)?;
    }
    Ok(report)
}

/// Whether what `p` was prepared against still holds: every match it continues has the hands and
/// state it had, and every name of a player it seats names the same player.
fn still_holds(tx: &Tx, p: &PreparedImport) -> Result<bool> {
    let mut found = BTreeMap::new();
    for m in &p.matches {
        match &m.to {
            Opened::Stored { id, version, .. } => {
                if repo::match_version(tx, *id)? != *version {
                    return Ok(false);
                }
            }
            Opened::New { names, .. } => {
                for (name, player) in names {
                    let now = match found.get(name) {
                        Some(id) => *id,
                        None => {
                            let id = repo::player_named(tx, p.club, name)?;
                            found.insert(name, id);
                            id
                        }
                    };
                    if now != Some(*player) {
                        return Ok(false);
                    }
                }
            }
        }
    }
    Ok(true)
}

/// The sheet's hands (each by its match's label, its number, its first row and its play digest)
/// that repeat a hand stored in the session: importing them would count each twice (a session's
/// export posted back to it, say).
fn repeated_hands<'a>(
    tx: &Tx,
    session: i64,
    hands: impl Iterator<Item = (&'a str, u32, Cell, &'a [u8])>,
) -> Result<Vec<FieldError>> {
    let mut repeats = Vec::new();
    // A session that stores no hand yet (where a sheet usually goes) has none to repeat: one
    // question, not one a hand.
    if !repo::session_has_hands(tx, session)? {
        return Ok(repeats);
    }
    for (label, number, first, digest) in hands {
        if let Some(stored) = repo::stored_play(tx, session, digest)? {
            repeats.push(first.at(HAND).problem(format!(
                "match '{label}' hand {} repeats {stored}, stored in session {session}: it would \
                 count twice (an export imports into another session; to correct a stored \
                 hand, amend it)",
                number
            )));
        }
    }
    Ok(repeats)
}

/// The match a sheet's rows go to, found or checked (a new match is stored by `publish`), in the
/// session `venue` seats; `players` holds each name the sheet's matches before it seated (the
/// player it names, if any). `None` when it cannot be opened (the problems are in `errors`).
fn open_match(
    tx: &Tx,
    club: i64,
    venue: &repo::Venue,
    players: &mut HashMap<String, Option<i64>>,
    m: &MatchDraft,
    errors: &mut Vec<FieldError>,
) -> Result<Option<Opened>> {
    let session = venue.session();
    if m.seats.is_empty() {
        let existing = m
            .label
            .parse::<i64>()
            .ok()
            .and_then(|id| repo::get_match(tx, club, id).ok());
        return Ok(match existing {
            Some(found) if found.session == session => Some(Opened::Stored {
                id: found.id,
                state: found.state,
                version: repo::match_version(tx, found.id)?,
            }),
            _ => {
                errors.push(m.first.at(MATCH).problem(format!(
                    "'{}' is not a match of session {session}: a new match starts with 'sit' rows",
                    m.label
                )));
                None
            }
        });
    }
    let mut seats = BTreeMap::new();
    let mut names = Vec::new();
    for (seat, (name, cell)) in &m.seats {
        let player = match players.get(name) {
            Some(player) => *player,
            None => {
                let player = repo::player_named(tx, club, name)?;
                players.insert(name.clone(), player);
                player
            }
        };
        match player {
            Some(id) => {
                seats.insert(seat.to_string(), id);
                names.push((name.clone(), id));
            }
            None => errors.push(
                cell.at(VALUE)
                    .problem(format!("no player named '{name}' in club {club}")),
            ),
        }
    }
    // Every seat's player was found by name above: `seat` does not read them again.
    if seats.len() < m.seats.len() {
        return Ok(None);
    }
    match venue.seat(tx, club, &seats, true) {
        Ok(seated) => Ok(Some(Opened::New { seated, names })),
        Err(StoreError::Invalid(e)) => {
            for e in e {
                let cell = e
                    .pointer
                    .strip_prefix("/seats/")
                    .and_then(|s| s.parse::<Seat>().ok())
                    .and_then(|s| m.seats.get(&s))
                    .map_or(m.first.at(SEAT), |(_, c)| c.at(SEAT));
                errors.push(cell.problem(e.detail));
            }
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

fn writer() -> ::csv::Writer<Vec<u8>> {
    ::csv::Writer::from_writer(Vec::new())
}

fn finish(w: ::csv::Writer<Vec<u8>>) -> String {
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 strings")
}

fn joined(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A page of a session's sheet, planned: whole matches after the cursor, as many as fit in one
/// import. The page is planned before any of it is sent, so that its next cursor can go in the
/// response's header; its rows are then written a batch at a time (`sheet_header`, `sheet_rows`),
/// so that a page is never held whole in memory.
#[derive(Debug)]
pub struct SheetPage {
    /// The page's matches, in order.
    pub matches: Vec<PlannedMatch>,
    /// The last match on this page, when more follow: pass it as `cursor` for the next page.
    pub next_cursor: Option<i64>,
}

/// A match of a planned page: its hands as they were when the page was planned (a hand posted
/// since waits for the next export) and the bytes its rows took.
#[derive(Clone, Copy, Debug)]
pub struct PlannedMatch {
    pub id: i64,
    hands: u32,
    bytes: usize,
}

impl SheetPage {
    /// The page's matches in batches of about `bytes` of rows each (a larger match alone), to be
    /// read and sent one after the other.
    pub fn batches(&self, bytes: usize) -> Vec<Vec<PlannedMatch>> {
        let mut batches: Vec<Vec<PlannedMatch>> = Vec::new();
        let mut size = 0;
        for m in &self.matches {
            match batches.last_mut() {
                Some(batch) if size + m.bytes <= bytes => batch.push(*m),
                _ => {
                    batches.push(vec![*m]);
                    size = 0;
                }
            }
            size += m.bytes;
        }
        batches
    }
}

/// The sheet's header row.
pub fn sheet_header() -> Vec<u8> {
    let mut header = writer();
    header
        .write_record(SHEET_COLUMNS)
        .expect("writing to memory");
    header.into_inner().expect("writing to memory")
}

/// Plans the page of the session's matches with an id above `after`, with their hands, as a sheet
/// that imports into another session as the same hands. A page holds whole matches and at most
/// `MAX_ROWS` rows and `MAX_SHEET` bytes, the import's limits, so each page of a large session
/// imports in turn; only a single match larger than that (thousands of hands) is alone on its
/// page and over them.
pub fn plan_sheet(tx: &Tx, club: i64, session: i64, after: i64) -> Result<SheetPage> {
    let (mut rows, mut bytes) = (0, sheet_header().len());
    let (mut matches, mut next_cursor) = (Vec::new(), None);
    for id in repo::match_ids(tx, club, session, after)? {
        let (hands, sheet, n) = stored_match_sheet(tx, club, id, None)?;
        if !matches.is_empty() && (rows + n > MAX_ROWS || bytes + sheet.len() > MAX_SHEET) {
            next_cursor = matches.last().map(|m: &PlannedMatch| m.id);
            break;
        }
        (rows, bytes) = (rows + n, bytes + sheet.len());
        matches.push(PlannedMatch {
            id,
            hands,
            bytes: sheet.len(),
        });
    }
    Ok(SheetPage {
        matches,
        next_cursor,
    })
}

/// The rows of a batch of a planned page's matches, each match with the hands it had at planning.
/// Each match is read whole in the caller's transaction; one amended or voided since the plan is
/// written as it now stands.
pub fn sheet_rows(tx: &Tx, club: i64, batch: &[PlannedMatch]) -> Result<Vec<u8>> {
    let mut rows = Vec::new();
    for planned in batch {
        let (_, sheet, _) = stored_match_sheet(tx, club, planned.id, Some(planned.hands))?;
        rows.extend_from_slice(&sheet);
    }
    Ok(rows)
}

/// Stored match `id`'s rows with its first `hands` hands (all of them when `None`): how many
/// hands they hold, the rows and how many there are.
fn stored_match_sheet(
    tx: &Tx,
    club: i64,
    id: i64,
    hands: Option<u32>,
) -> Result<(u32, Vec<u8>, usize)> {
    let m = repo::get_match(tx, club, id)?;
    let hands = hands.unwrap_or(m.hands);
    let (sheet, rows) = match_sheet(&m, &repo::match_records(tx, m.id, hands)?);
    Ok((hands, sheet, rows))
}

/// One match's rows (its `sit` rows, then every hand's) and how many there are.
fn match_sheet(m: &Match, hands: &[HandRecord]) -> (Vec<u8>, usize) {
    let mut w = writer();
    let mut rows = 0;
    let mut row = |cells: [&str; 6]| {
        w.write_record(cells).expect("writing to memory");
        rows += 1;
    };
    let label = m.id.to_string();
    for (seat, p) in &m.seats {
        row([&label, "", "", seat.code(), "sit", &to_cell(&p.name)]);
    }
    for (i, h) in hands.iter().enumerate() {
        let number = (i + 1).to_string();
        let mut line = |seat: Seat, action: &str, value: &str| {
            row([&label, &number, h.dealer.code(), seat.code(), action, value])
        };
        for (seat, cards) in &h.deal {
            line(*seat, "deal", &joined(cards));
        }
        for (field, cards) in [
            ("face_up", &h.face_up),
            ("stock", &h.stock),
            ("second_stock", &h.second_stock),
            ("shoe", &h.shoe),
        ] {
            if !cards.is_empty() {
                line(h.dealer, field, &joined(cards));
            }
        }
        if let Some(n) = h.cut_card {
            line(h.dealer, "cut_card", &n.to_string());
        }
        for a in &h.actions {
            line(a.seat, &a.kind.verb, &cell_text(&a.kind.value));
        }
    }
    (w.into_inner().expect("writing to memory"), rows)
}

/// The sheet's header and one example row of each kind for `game`, placeholders in angle brackets.
pub fn sheet_template(game: &dyn Game) -> String {
    // A new match's label: not a number, which would name a stored match.
    const LABEL: &str = "table-1";
    let mut w = writer();
    w.write_record(SHEET_COLUMNS).expect("writing to memory");
    let table = game.table(&Options::defaults(game.info().options));
    let seats: Vec<String> = table.seats().map(|s| s.to_string()).collect();
    for s in &seats {
        w.write_record([LABEL, "", "", s, "sit", "<player name>"])
            .expect("writing to memory");
    }
    let dealer = &seats[0];
    for s in &seats {
        w.write_record([
            LABEL,
            "1",
            dealer,
            s,
            "deal",
            &format!("<every card dealt to {s}, space-separated>"),
        ])
        .expect("writing to memory");
    }
    for (field, what) in setup_rows(game) {
        w.write_record([LABEL, "1", dealer, dealer, field, &format!("<{what}>")])
            .expect("writing to memory");
    }
    for verb in game.info().verbs {
        w.write_record([LABEL, "1", dealer, &seats[1], verb, game.placeholder(verb)])
            .expect("writing to memory");
    }
    finish(w)
}

/// The rows a sheet of `game` may hold beside the deal: each part its record declares (`Rules::setup`)
/// that a sheet can list, and what it holds.
fn setup_rows(game: &dyn Game) -> Vec<(&'static str, &'static str)> {
    game.setup(&Options::defaults(game.info().options))
        .parts
        .iter()
        .map(|h| (h.part.field(), h.what))
        .filter(|(field, _)| *field == "cut_card" || SHEET_CARDS.contains(field))
        .collect()
}

/// Hand summaries as a CSV table.
pub fn hands_table(hands: &[HandSummary]) -> String {
    let mut w = writer();
    // One column per side of the league's table: NS and EW, or where each plays alone his seat's
    // (N E S W at four, P1, P2, ... otherwise).
    let mut sides: Vec<Side> = hands
        .iter()
        .flat_map(|h| h.match_after.scores.sides())
        .collect();
    sides.sort();
    sides.dedup();
    if sides.is_empty() {
        sides = Side::BOTH.to_vec();
    }
    let per_side =
        |prefix: &str| -> Vec<String> { sides.iter().map(|s| format!("{prefix}_{s}")).collect() };
    let mut header: Vec<String> = [
        "id", "match", "session", "league", "number", "dealer", "outcome",
    ]
    .map(String::from)
    .to_vec();
    header.extend(per_side("score"));
    header.push("irregularities".into());
    header.extend(per_side("match"));
    header.extend(["game_over", "winners", "created_at"].map(String::from));
    w.write_record(&header).expect("writing to memory");
    for h in hands {
        let mut row = vec![
            h.id.to_string(),
            h.match_id.to_string(),
            h.session.to_string(),
            h.league.to_string(),
            h.number.to_string(),
            h.dealer.to_string(),
            h.outcome.clone(),
        ];
        row.extend(
            sides
                .iter()
                .map(|&s| h.hand_score.map(|p| p[s].to_string()).unwrap_or_default()),
        );
        row.push(h.irregularities.join(" "));
        row.extend(sides.iter().map(|&s| h.match_after.scores[s].to_string()));
        row.extend([
            h.match_after.game_over.to_string(),
            h.match_after
                .winners
                .iter()
                .map(Side::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            h.created_at.clone(),
        ]);
        w.write_record(&row).expect("writing to memory");
    }
    finish(w)
}

/// Standings as one CSV table: players first, then partnerships (`kind`). `places` is the counts of
/// first, second, ... places separated by spaces; `camps` each role as `role=hands/points`.
pub fn standings_table(s: &Standings) -> String {
    let mut w = writer();
    w.write_record([
        "kind",
        "rank",
        "id",
        "name",
        "matches_played",
        "won",
        "lost",
        "points_for",
        "points_against",
        "hands",
        "irregularities",
        "rating",
        "uncertainty",
        "conservative",
        "places",
        "camps",
    ])
    .expect("writing to memory");
    let none = BTreeMap::new();
    let rows = s
        .players
        .iter()
        .map(|p| {
            let rating = Some(&p.rating);
            ("player", p.rank, &p.player, &p.record, rating, &p.camps)
        })
        .chain(s.partnerships.iter().map(|p| {
            let who = &p.partnership;
            ("partnership", p.rank, who, &p.record, None, &none)
        }));
    for (kind, rank, who, r, rating, camps) in rows {
        let num = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
        let places: Vec<String> = r.places.iter().map(u32::to_string).collect();
        let camps: Vec<String> = camps
            .iter()
            .map(|(role, c)| format!("{}={}/{}", role, c.hands, c.points))
            .collect();
        w.write_record([
            kind.to_string(),
            rank.to_string(),
            who.id.to_string(),
            to_cell(&who.name).into_owned(),
            r.matches_played.to_string(),
            r.won.to_string(),
            r.lost.to_string(),
            r.points_for.to_string(),
            r.points_against.to_string(),
            r.hands.to_string(),
            r.irregularities.to_string(),
            num(rating.map(|x| x.rating)),
            num(rating.map(|x| x.uncertainty)),
            num(rating.map(|x| x.conservative)),
            places.join(" "),
            to_cell(&camps.join(" ")).into_owned(),
        ])
        .expect("writing to memory");
    }
    finish(w)
}

#[cfg(test)]
mod tests {
    use super::{
        Options, PIECE_BYTES, VALUE, every_quote_closes, may_be_json, read, read_in,
        read_in_pieces, trimmed, unclosed_quote_cell,
    };
    use proptest::prelude::*;

    proptest! {
        /// A cell is trimmed as `str::trim` trims it, whatever spaces (Unicode's too) and
        /// characters are at its ends.
        #[test]
        fn a_cell_is_trimmed_as_str_trim_trims_it(
            cell in "[ \t\u{a0}\u{3000}\u{85}]{0,2}[a-zA-Z0-9 \u{e9}\u{a0}\x01]{0,4}[ \t\u{2003}]{0,2}"
        ) {
            prop_assert_eq!(trimmed(&cell), cell.trim());
        }
    }

    proptest! {
        /// Quotes, separators and line ends in any order: the check from quote to quote finds an
        /// unclosed value exactly when the reading byte by byte does.
        #[test]
        fn every_quote_closes_as_the_byte_by_byte_reading_has_it(
            sheet in prop::collection::vec(prop::sample::select(b"\",\n\ra ".to_vec()), 0..40)
        ) {
            prop_assert_eq!(every_quote_closes(&sheet), unclosed_quote_cell(&sheet).is_none());
        }
    }

    /// A cell `may_be_json` rules out never reads as JSON: the shortcut changes no value.
    fn agrees(cell: &str) {
        let cell = cell.trim();
        if serde_json::from_str::<serde_json::Value>(cell).is_ok() {
            assert!(may_be_json(cell), "{cell:?} is JSON but was ruled out");
        }
    }

    #[test]
    fn a_cell_ruled_out_as_json_is_not_json() {
        for cell in [
            "7S",
            "QS",
            "10H",
            "1E5",
            "-0.5e-3",
            "12",
            "-",
            "true",
            "false",
            "null",
            "\"7S\"",
            "[1,2]",
            "{\"a\":1}",
            "Infinity",
            "NaN",
            "tru",
            "1e",
            "+1",
            "",
            " 3 ",
        ] {
            agrees(cell);
        }
        assert!(!may_be_json("7S") && !may_be_json("QS") && may_be_json("12"));
    }

    /// The problems of a Malilla sheet, each as its row, the name of its column and its detail.
    fn malilla_sheet_problems(sheet: &str) -> Vec<(u64, String, String)> {
        let game = crate::games::find("malilla").unwrap();
        let table = game.table(&Options::defaults(game.info().options));
        read(game, table, sheet.as_bytes())
            .err()
            .unwrap()
            .into_iter()
            .map(|e| {
                let column = e.pointer.rsplit('/').next().unwrap().to_string();
                (e.row.unwrap(), column, e.detail)
            })
            .collect()
    }

    /// A hand's dealer is said on one of its rows or more (the others may leave it empty): a seat
    /// that is none, and a second dealer for the hand, are each refused at the cell; a hand that
    /// never names one (a seat that is none names none) needs it.
    #[test]
    fn a_hands_dealer_is_read_where_given_and_checked() {
        let sheet = "match,hand,dealer,seat,action,value\n\
                     m,,,N,sit,Ana\nm,,,E,sit,Ben\nm,,,S,sit,Cai\nm,,,W,sit,Dee\n\
                     m,1,N,N,play,QS\nm,1,,E,play,7S\nm,1,N,S,play,2S\nm,1,E,W,play,3S\n\
                     m,2,X,N,play,QS\nm,3,,N,play,QS\n";
        let problems = malilla_sheet_problems(sheet);
        let expected = [
            (9, "hand 1 is dealt by N, not E"),
            (10, "expected the dealer's seat: N, E, S, W"),
            (10, "hand 2 needs its dealer"),
            (11, "hand 3 needs its dealer"),
        ];
        assert_eq!(
            problems,
            expected.map(|(row, detail)| (row, "dealer".to_string(), detail.to_string()))
        );
    }

    /// A match's rows come together: a label met again after another match's rows is refused at
    /// that row, each time.
    #[test]
    fn a_match_whose_rows_are_apart_is_refused_where_it_comes_back() {
        let sheet = "match,hand,dealer,seat,action,value\n\
                     m,,,N,sit,Ana\nn,,,N,sit,Ben\nm,,,E,sit,Cai\no,,,N,sit,Dee\n\
                     m,,,S,sit,Eve\nn,,,E,sit,Fay\n";
        let mut problems = malilla_sheet_problems(sheet);
        problems.retain(|(.., detail)| detail.contains("together"));
        let apart = |row, label| {
            let detail = format!("the rows of match '{label}' must be together");
            (row, "match".to_string(), detail)
        };
        assert_eq!(problems, [apart(4, "m"), apart(6, "m"), apart(7, "n")]);
    }

    /// A Malilla sheet of `matches` matches, two hands each, its lines ended by `end`.
    fn malilla_sheet(matches: usize, end: &str) -> String {
        let mut rows = vec!["match,hand,dealer,seat,action,value".to_string()];
        for m in 0..matches {
            for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
                rows.push(format!("m{m},,,{seat},sit,{name}"));
            }
            for hand in 1..=2 {
                rows.push(format!("m{m},{hand},N,N,deal,QS 7S 2S"));
                rows.push(format!("m{m},{hand},,E,play,7S"));
                rows.push(format!(" m{m} ,{hand},,S,play,2S"));
            }
        }
        rows.join(end) + end
    }

    /// A large sheet read in pieces side by side reads as in one go: the same matches, hands and
    /// lines, with CR LF line ends, after a byte order mark, and with quoted values. Where it
    /// could not (a match whose rows come back after another piece's, a problem in a piece, a
    /// quoted value of two lines, a match whose label is quoted on some of its rows), it is read
    /// in one go, for the same problems in the same order.
    #[test]
    fn a_sheet_read_in_pieces_reads_as_in_one_go() {
        let game = crate::games::find("malilla").unwrap();
        let table = game.table(&Options::defaults(game.info().options));
        let sheet = malilla_sheet(2000, "\n");
        assert!(sheet.len() > 4 * PIECE_BYTES);
        let apart = format!("{sheet}m0,3,N,N,play,QS\n");
        let mut broken = sheet.clone();
        broken.insert_str(sheet.len() / 2, "m,x,N,N,play,QS\n");
        let quoted = sheet.replace("Ana", "\"A, \"\"na\"\"\"");
        let two_lines = sheet.replacen("Ana", "\"A\nna\"", 1);
        // Every other row's label quoted: a label written two ways is one match's.
        let relabelled: String = (sheet.split_inclusive('\n').enumerate())
            .map(|(i, line)| match line.split_once(',') {
                Some((label, rest)) if i % 2 == 1 => format!("\"{}\",{rest}", label.trim()),
                _ => line.to_string(),
            })
            .collect();
        for (sheet, in_pieces) in [
            (sheet.clone(), true),
            (sheet.replace('\n', "\r\n"), true),
            (format!("\u{feff}{sheet}"), true),
            (quoted, true),
            (apart, false),
            (broken, false),
            (two_lines, false),
            (relabelled, false),
        ] {
            let bytes = sheet.as_bytes();
            let body = sheet.find('\n').unwrap() + 1;
            let whole = read_in(game, table, bytes, 1);
            for pieces in [2, 3, 7] {
                let cut = read_in_pieces(game, table, bytes, body, pieces);
                assert_eq!(
                    cut.is_some(),
                    in_pieces,
                    "{pieces} pieces of {:?}",
                    &sheet[..body]
                );
                assert_eq!(read_in(game, table, bytes, pieces), whole);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        /// Whatever a large sheet's line ends (LF, CR LF, CR, mixed) and quotes (labels, values,
        /// a value of two lines), reading it in pieces reads it as in one go.
        #[test]
        fn any_large_sheet_read_in_pieces_reads_as_in_one_go(
            marks in prop::collection::vec(0u8..12, 61),
            two_lines in any::<bool>(),
        ) {
            let game = crate::games::find("malilla").unwrap();
            let table = game.table(&Options::defaults(game.info().options));
            let mark = |i: usize| marks[(i ^ (i >> 5)) % marks.len()];
            let plain = malilla_sheet(700, "\n");
            let mut sheet = String::new();
            for (i, line) in plain.lines().enumerate() {
                let end = match mark(i) & 3 {
                    2 => "\r\n",
                    3 => "\r",
                    _ => "\n",
                };
                let cells: Vec<&str> = line.splitn(6, ',').collect();
                let (label, value) = (cells[0].trim(), cells[5]);
                // A match's label is quoted on all its rows or none.
                let of_label = label.bytes().fold(0, |h: usize, b| h * 31 + usize::from(b));
                let label_quoted = i > 0 && mark(of_label) >> 2 == 1;
                let value = match mark(i) >> 2 {
                    _ if two_lines && i == 3500 => format!("\"{value}{end}\""),
                    2 if i > 0 => format!("\"{value}\""),
                    _ => value.to_string(),
                };
                let label = if label_quoted { format!("\"{label}\"") } else { cells[0].into() };
                sheet += &format!("{label},{},{value}{end}", cells[1..5].join(","));
            }
            prop_assert!(sheet.len() > 2 * PIECE_BYTES + 40);
            let whole = read_in(game, table, sheet.as_bytes(), 1);
            prop_assert!(whole.is_ok());
            prop_assert_eq!(read_in(game, table, sheet.as_bytes(), 3), whole);
        }
    }

    /// A problem names the line its row is on, also in a sheet whose lines end in CR LF (as a
    /// spreadsheet writes it), after blank lines, and after a value of more than one line (the
    /// last, the hand that never names a valid dealer, at its first row).
    #[test]
    fn a_problem_names_its_rows_line_whatever_the_line_ends() {
        let sheet = "match,hand,dealer,seat,action,value\n\
                     m,,,N,sit,Ana\nm,,,E,sit,Ben\nm,,,S,sit,Cai\nm,,,W,sit,Dee\n\n\n\
                     m,1,X,N,play,QS\nm,1,N,E,sit,\"Ben\nBen\"\nm,1,Q,S,play,2S\n";
        let lines = |sheet: &str| -> Vec<u64> {
            malilla_sheet_problems(sheet)
                .into_iter()
                .map(|p| p.0)
                .collect()
        };
        assert_eq!(lines(sheet), [8, 9, 11, 8]);
        assert_eq!(lines(&sheet.replace('\n', "\r\n")), [8, 9, 11, 8]);
        // An old Mac's line ends, a lone CR, and the two kinds mixed.
        assert_eq!(lines(&sheet.replace('\n', "\r")), [8, 9, 11, 8]);
        let mixed = sheet.replacen('\n', "\r", 3).replacen('\n', "\r\n", 3);
        assert_eq!(lines(&mixed), [8, 9, 11, 8]);
    }

    /// A quote that never closes is found on its line with any line ends.
    #[test]
    fn an_unclosed_quote_is_found_on_its_line_whatever_the_line_ends() {
        let sheet = "match,hand,dealer,seat,action,value\nm,,,N,sit,Ana\n\nm,,,E,sit,\"Ben\n";
        for ends in ["\n", "\r\n", "\r"] {
            let sheet = sheet.replace('\n', ends);
            let cell = unclosed_quote_cell(sheet.as_bytes()).expect("the quote does not close");
            assert_eq!((cell.line, cell.column), (4, VALUE), "{ends:?}");
        }
    }

    /// A hand's rows come together too: a hand number met again after another hand's rows is
    /// refused at that row, also when the hands are out of order; a number not met before is
    /// not, wherever it comes.
    #[test]
    fn a_hand_whose_rows_are_apart_is_refused_where_it_comes_back() {
        let sheet = "match,hand,dealer,seat,action,value
                     m,,,N,sit,Ana
m,,,E,sit,Ben
m,,,S,sit,Cai
m,,,W,sit,Dee
                     m,3,N,N,play,QS
m,1,N,N,play,QS
m,3,,E,play,7S
m,2,N,N,play,QS
                     m,1,,E,play,7S
m,4,N,N,play,QS
m,2,,E,play,7S
";
        let mut problems = malilla_sheet_problems(sheet);
        problems.retain(|(.., detail)| detail.contains("together"));
        let apart = |row, number| {
            let detail = format!("the rows of hand {number} must be together");
            (row, "hand".to_string(), detail)
        };
        assert_eq!(problems, [apart(8, 3), apart(10, 1), apart(12, 2)]);
    }

    proptest! {
        #[test]
        fn no_json_cell_is_ruled_out(cell in "[-+.0-9eEtruefalsnQS7\\[\\]{}\":, ]{0,8}") {
            agrees(&cell);
        }
    }
}
