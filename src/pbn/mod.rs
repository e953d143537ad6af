//! PBN, the text form of a hand record (`docs/pbn.md`): Portable Bridge Notation 2.1's tags where
//! they fit (`[Dealer]`, `[Deal]`, `[Auction]` with its calls, `[Play]` by tricks, the players'
//! names), arbiter's own tags for the rest (`[ArbiterGame]`, the options, the match state, every
//! action that is neither a call nor a card played in turn). Generic over the engine: any game at
//! a table of four seats `N E S W` with one 52-card pack is read and written with no code of its
//! own. Who made each call and played each card is not written: the engine says whose turn it is
//! as the hand is replayed, so the text is read back into the record it was written from, and a
//! record the text cannot carry exactly is refused, never written to read back differently.

mod text;
mod value;

pub use text::Position;

use crate::cards::{Card, Rank, Suit, packs};
use crate::engine::{Game, Options, Replay};
use crate::input::FieldError;
use crate::record::{Action, AnyVerb, HandRecord, MatchState};
use crate::seat::Seat;
use serde_json::Value;
use std::collections::BTreeMap;
use text::{Tag, Token};

/// The media type of a PBN text.
pub const MEDIA_TYPE: &str = "application/x-pbn";

/// Why a text is not read, or a record not written: each error with its JSON pointer into the
/// record and, in a text, its line and column (`row`, `column`).
#[derive(Debug)]
pub enum Refused {
    /// The text is not PBN (a tag not closed, text before the first tag).
    Malformed(Vec<FieldError>),
    /// The text is PBN but not a hand of its game, or the record cannot be written.
    Invalid(Vec<FieldError>),
}

impl Refused {
    pub fn errors(&self) -> &[FieldError] {
        match self {
            Refused::Malformed(e) | Refused::Invalid(e) => e,
        }
    }
}

/// A record read from a PBN text, with where each part of it was written.
pub struct Read {
    pub game: &'static dyn Game,
    pub record: HandRecord,
    /// Pointers into the record (`/deal`, `/actions/7`) and where the text wrote them.
    places: Vec<(String, Position)>,
}

impl Read {
    /// Adds the line and column of the text to each error whose pointer names a part of the
    /// record the text wrote (the longest such part).
    pub fn locate(&self, errors: &mut [FieldError]) {
        for e in errors {
            let place = self
                .places
                .iter()
                .filter(|(p, _)| {
                    e.pointer == *p || e.pointer.starts_with(&format!("{p}/")) || p.is_empty()
                })
                .max_by_key(|(p, _)| p.len());
            if let Some((_, at)) = place {
                e.row = Some(at.line);
                e.column = Some(at.column);
            }
        }
    }
}

/// The PBN tags arbiter reads: PBN's own, and its extension tags.
const DEALER: &str = "Dealer";
const DEAL: &str = "Deal";
const AUCTION: &str = "Auction";
const PLAY: &str = "Play";
const PLAYERS: [(&str, Seat); 4] = [
    ("North", Seat::N),
    ("East", Seat::E),
    ("South", Seat::S),
    ("West", Seat::W),
];
const GAME: &str = "ArbiterGame";
const OPTIONS: &str = "ArbiterOptions";
const MATCH_STATE: &str = "ArbiterMatchState";
const DEAL_ORDER: &str = "ArbiterDealOrder";
const FACE_UP: &str = "ArbiterFaceUp";
const STOCK: &str = "ArbiterStock";
const ACTIONS: &str = "ArbiterActions";
const ARBITER_TAGS: [&str; 7] = [
    GAME,
    OPTIONS,
    MATCH_STATE,
    DEAL_ORDER,
    FACE_UP,
    STOCK,
    ACTIONS,
];

/// The verbs of the auction's calls (the engine's auction: `auction_calls!`).
const CALLS: [&str; 2] = ["pass", "bid"];

/// The rank a PBN hand or card writes as `c` (`A K Q J T 9 8 7 6 5 4 3 2`).
fn rank_of(c: char) -> Option<Rank> {
    Rank::parse(c.encode_utf8(&mut [0; 4]))
}

/// The seat `k` places clockwise from `seat`.
fn after(seat: Seat, k: usize) -> Seat {
    Seat::COMPASS[(seat.pos() + k) % 4]
}

/// The place of `seat`'s card in a trick of a play section whose first seat is `first`.
fn column(seat: Seat, first: Seat) -> usize {
    (seat.pos() + 4 - first.pos()) % 4
}

/// Whether PBN can carry a hand of `game` under `options`: four seats named `N E S W`, one
/// 52-card pack.
pub fn fits(game: &dyn Game, options: &Options) -> Result<(), String> {
    let table = game.table(options);
    let pack = game.setup(options).pack;
    let standard = packs::standard52();
    if table.size != 4 || pack.cards != standard.cards || pack.copies.is_some() {
        return Err(format!(
            "PBN carries a hand of four seats N E S W and one 52-card pack; {} is played here by {} \
             with the {}",
            game.info().name,
            table.names(),
            pack.name
        ));
    }
    Ok(())
}

fn invalid(pointer: &str, at: Position, detail: impl Into<String>) -> Refused {
    Refused::Invalid(vec![located(pointer, at, detail)])
}

fn located(pointer: &str, at: Position, detail: impl Into<String>) -> FieldError {
    FieldError {
        pointer: pointer.into(),
        detail: detail.into(),
        row: Some(at.line),
        column: Some(at.column),
    }
}

/// Reads a PBN text as a hand record. `game` is the game the text is sent to (the path of `POST
/// /v1/games/{game}/adjudications`); without it, the text names its game (`[ArbiterGame]`).
pub fn read(text: &str, game: Option<&'static dyn Game>) -> Result<Read, Refused> {
    let tags = text::tags(text).map_err(|m| {
        Refused::Malformed(vec![FieldError {
            pointer: String::new(),
            detail: m.detail,
            row: Some(m.at.line),
            column: Some(m.at.column),
        }])
    })?;
    if tags.is_empty() {
        return Err(Refused::Malformed(vec![located(
            "",
            Position { line: 1, column: 1 },
            "the text has no tag: expected a PBN text such as [Dealer \"N\"] [Deal \"N:...\"]",
        )]));
    }
    let mut by_name: BTreeMap<&str, &Tag> = BTreeMap::new();
    for tag in &tags {
        if tag.name.starts_with("Arbiter") && !ARBITER_TAGS.contains(&tag.name.as_str()) {
            return Err(invalid(
                "",
                tag.at,
                format!(
                    "[{}] is not one of arbiter's tags: expected one of {}",
                    tag.name,
                    ARBITER_TAGS.join(", ")
                ),
            ));
        }
        if by_name.insert(&tag.name, tag).is_some() {
            return Err(invalid(
                "",
                tag.at,
                format!(
                    "[{}] is given twice: a text holds one hand (one board)",
                    tag.name
                ),
            ));
        }
        let sections = [AUCTION, PLAY, ACTIONS];
        let known = sections.contains(&tag.name.as_str())
            || [DEALER, DEAL].contains(&tag.name.as_str())
            || ARBITER_TAGS.contains(&tag.name.as_str());
        if let (true, Some(t)) = (
            known && !sections.contains(&tag.name.as_str()),
            tag.data.first(),
        ) {
            return Err(invalid(
                "",
                t.at,
                format!("'{}' after [{}]: this tag has no section", t.text, tag.name),
            ));
        }
    }
    let mut places = vec![(String::new(), Position { line: 1, column: 1 })];
    let mut place = |pointer: &str, tag: &Tag| places.push((pointer.into(), tag.value_at));

    // The game: the text's, which must be the one it is sent to.
    let named = by_name.get(GAME).copied();
    let game = match (named, game) {
        (Some(tag), sent) => {
            let found = crate::games::find(&tag.value).ok_or_else(|| {
                let ids: Vec<_> = crate::games::all().iter().map(|g| g.info().id).collect();
                invalid(
                    "/game",
                    tag.value_at,
                    format!(
                        "unknown game '{}': expected one of {}",
                        tag.value,
                        ids.join(", ")
                    ),
                )
            })?;
            if let Some(sent) = sent
                && sent.info().id != found.info().id
            {
                return Err(invalid(
                    "/game",
                    tag.value_at,
                    format!(
                        "this record is for '{}' but was sent to '{}'",
                        tag.value,
                        sent.info().id
                    ),
                ));
            }
            place("/game", tag);
            found
        }
        (None, Some(sent)) => sent,
        (None, None) => {
            return Err(invalid(
                "/game",
                Position { line: 1, column: 1 },
                "the text does not name its game: expected a tag such as [ArbiterGame \"court-piece\"]",
            ));
        }
    };

    let mut record = HandRecord {
        game: named.map(|t| t.value.clone()),
        options: BTreeMap::new(),
        players: BTreeMap::new(),
        dealer: Seat::N,
        deal: BTreeMap::new(),
        face_up: Vec::new(),
        stock: Vec::new(),
        second_stock: Vec::new(),
        shoe: Vec::new(),
        cut_card: None,
        deals: Vec::new(),
        actions: Vec::new(),
        match_state: None,
    };

    if let Some(tag) = by_name.get(OPTIONS) {
        let fields =
            value::read_fields(&tag.value).map_err(|e| invalid("/options", tag.value_at, e))?;
        record.options = fields.into_iter().collect();
        place("/options", tag);
    }
    let options = Options::resolve(game.info().options, &record.options, "/options")
        .map_err(|e| Refused::Invalid(with_position(e, by_name.get(OPTIONS).copied())))?;
    let game_at = named.map_or(Position { line: 1, column: 1 }, |t| t.value_at);
    fits(game, &options).map_err(|e| invalid("/game", game_at, e))?;

    for (name, seat) in PLAYERS {
        if let Some(tag) = by_name.get(name) {
            record.players.insert(seat, tag.value.clone());
            place(&format!("/players/{seat}"), tag);
        }
    }
    let tag = by_name.get(DEALER).copied().ok_or_else(|| {
        invalid(
            "/dealer",
            Position { line: 1, column: 1 },
            "the text has no [Dealer]: expected a tag such as [Dealer \"N\"]",
        )
    })?;
    record.dealer = compass(&tag.value).ok_or_else(|| {
        invalid(
            "/dealer",
            tag.value_at,
            format!("'{}' is not a seat: expected N, E, S or W", tag.value),
        )
    })?;
    place("/dealer", tag);
    let tag = by_name.get(DEAL).copied().ok_or_else(|| {
        invalid(
            "/deal",
            Position { line: 1, column: 1 },
            "the text has no [Deal]: expected a tag such as [Deal \"N:AKQ.... ... ... ...\"]",
        )
    })?;
    record.deal = read_deal(tag)?;
    place("/deal", tag);
    if let Some(tag) = by_name.get(DEAL_ORDER) {
        read_deal_order(tag, &mut record.deal)?;
    }
    if let Some(tag) = by_name.get(FACE_UP) {
        record.face_up = read_cards(tag, "/face_up")?;
        place("/face_up", tag);
    }
    if let Some(tag) = by_name.get(STOCK) {
        record.stock = read_cards(tag, "/stock")?;
        place("/stock", tag);
    }
    if let Some(tag) = by_name.get(MATCH_STATE) {
        let fields =
            value::read_fields(&tag.value).map_err(|e| invalid("/match_state", tag.value_at, e))?;
        let state: MatchState =
            serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
                invalid(
                    &format!("/match_state{}", crate::input::pointer_of(e.path())),
                    tag.value_at,
                    e.into_inner().to_string(),
                )
            })?;
        record.match_state = Some(state);
        place("/match_state", tag);
    }

    let sections = Sections::read(
        by_name.get(AUCTION).copied(),
        by_name.get(PLAY).copied(),
        by_name.get(ACTIONS).copied(),
    )?;
    let mut located = Read {
        game,
        record,
        places,
    };
    let replay = Replay::start(game, &located.record).map_err(|mut e| {
        located.locate(&mut e);
        Refused::Invalid(e)
    })?;
    let (actions, at) = sections.place(replay)?;
    located.record.actions = actions;
    for (i, at) in at.into_iter().enumerate() {
        located.places.push((format!("/actions/{i}"), at));
    }
    Ok(located)
}

/// `errors` placed at `tag`'s value, where there is one.
fn with_position(mut errors: Vec<FieldError>, tag: Option<&Tag>) -> Vec<FieldError> {
    if let Some(tag) = tag {
        for e in &mut errors {
            e.row = Some(tag.value_at.line);
            e.column = Some(tag.value_at.column);
        }
    }
    errors
}

fn compass(s: &str) -> Option<Seat> {
    Seat::COMPASS.into_iter().find(|seat| seat.to_string() == s)
}

/// `[Deal "N:KQT2.AT.J6542.85 ..."]`: the first seat, then each seat's hand clockwise, suits
/// `S.H.D.C`, ranks as listed (`-` for a seat dealt nothing written).
fn read_deal(tag: &Tag) -> Result<BTreeMap<Seat, Vec<Card>>, Refused> {
    let v = &tag.value;
    let bad = |offset: usize, detail: String| invalid("/deal", tag.value_at.plus(offset), detail);
    let Some((first, hands)) = v.split_once(':') else {
        return Err(bad(
            0,
            "expected the first seat and a colon, then four hands: \"N:KQT2.AT.J6542.85 ...\""
                .into(),
        ));
    };
    let first = compass(first).ok_or_else(|| {
        bad(
            0,
            format!("'{first}' is not a seat: expected N, E, S or W before the colon"),
        )
    })?;
    let mut deal = BTreeMap::new();
    let mut offset = first.to_string().len() + 1;
    let hands: Vec<&str> = hands.split(' ').collect();
    if hands.len() != 4 {
        return Err(bad(
            offset,
            format!(
                "expected four hands separated by single spaces, found {}",
                hands.len()
            ),
        ));
    }
    for (k, hand) in hands.into_iter().enumerate() {
        let seat = after(first, k);
        let pointer = format!("/deal/{seat}");
        let at = tag.value_at.plus(offset);
        offset += hand.chars().count() + 1;
        if hand == "-" {
            continue;
        }
        let suits: Vec<&str> = hand.split('.').collect();
        if suits.len() != 4 {
            return Err(invalid(
                &pointer,
                at,
                format!(
                    "{seat}'s hand '{hand}' is not four suits S.H.D.C separated by dots ('-' for none)"
                ),
            ));
        }
        let mut cards = Vec::new();
        for (suit, ranks) in Suit::ALL.into_iter().zip(suits) {
            for c in ranks.chars() {
                let rank = rank_of(c).ok_or_else(|| {
                    invalid(
                        &pointer,
                        at,
                        format!(
                            "'{c}' in {seat}'s hand is not a rank: expected A K Q J T 9 8 7 6 5 4 3 2"
                        ),
                    )
                })?;
                cards.push(Card::new(rank, suit));
            }
        }
        deal.insert(seat, cards);
    }
    Ok(deal)
}

/// `[ArbiterDealOrder "N:7S,AS,KS ..."]`: the order a seat's cards were dealt in, where the record
/// lists them otherwise than PBN's hand does (Court Piece's first packet of five).
fn read_deal_order(tag: &Tag, deal: &mut BTreeMap<Seat, Vec<Card>>) -> Result<(), Refused> {
    for item in tag.value.split_ascii_whitespace() {
        let bad = |detail: String| invalid("/deal", tag.value_at, detail);
        let (seat, cards) = item
            .split_once(':')
            .and_then(|(s, c)| Some((compass(s)?, c)))
            .ok_or_else(|| {
                bad(format!(
                    "'{item}' is not a seat's order: expected N:7S,AS,..."
                ))
            })?;
        let cards = if cards.is_empty() {
            Vec::new()
        } else {
            cards
                .split(',')
                .map(|c| c.parse::<Card>().map_err(|e| bad(e.to_string())))
                .collect::<Result<Vec<_>, _>>()?
        };
        let held = deal.get_mut(&seat).ok_or_else(|| {
            bad(format!(
                "{seat} is dealt nothing in [Deal]: no order to give"
            ))
        })?;
        let (mut a, mut b) = (held.clone(), cards.clone());
        a.sort();
        b.sort();
        if a != b {
            return Err(bad(format!(
                "{seat}'s order does not list the cards [Deal] gives {seat}"
            )));
        }
        *held = cards;
    }
    Ok(())
}

/// A tag listing cards in the record's notation, space-separated (`AS 2C`).
fn read_cards(tag: &Tag, pointer: &str) -> Result<Vec<Card>, Refused> {
    tag.value
        .split_ascii_whitespace()
        .enumerate()
        .map(|(i, c)| {
            c.parse::<Card>()
                .map_err(|e| invalid(&format!("{pointer}/{i}"), tag.value_at, e.to_string()))
        })
        .collect()
}

/// A card as PBN's play section writes it: suit, then rank (`SA`, `HT`).
fn pbn_card(token: &str) -> Option<Card> {
    let mut chars = token.chars();
    let letter = chars.next()?;
    let suit = Suit::ALL.into_iter().find(|s| s.letter() == letter)?;
    let rank = rank_of(chars.next()?)?;
    chars.next().is_none().then(|| Card::new(rank, suit))
}

fn write_pbn_card(card: Card) -> String {
    format!(
        "{}{}",
        card.suit_unchecked().letter(),
        card.rank_unchecked().letter()
    )
}

/// A token PBN allows in a section and arbiter does not read: a note's reference (`=1=`), an
/// annotation glyph (`$12`), the end of an incomplete section (`*`).
fn skipped(token: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    token == "*"
        || token.strip_prefix('$').is_some_and(digits)
        || token
            .strip_prefix('=')
            .and_then(|t| t.strip_suffix('='))
            .is_some_and(digits)
}

/// An action's verb and value written as one token: `verb` for `true`, else `verb:value`.
fn write_action(a: &AnyVerb) -> String {
    match &a.value {
        Value::Bool(true) => a.verb.clone(),
        v => format!("{}:{}", a.verb, value::write(v)),
    }
}

fn is_verb(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The verb and value of an action token (`trump:H`, `pass`).
fn read_action(token: &str) -> Result<AnyVerb, String> {
    let (verb, value) = match token.split_once(':') {
        Some((verb, v)) => (verb, value::read(v)?),
        None => (token, Value::Bool(true)),
    };
    if !is_verb(verb) {
        return Err(format!(
            "'{token}' is not an action: expected a verb (trump, correct, ...) and ':value' unless the value is true"
        ));
    }
    Ok(AnyVerb {
        verb: verb.into(),
        value,
    })
}

/// A call of the auction section: `Pass`, a bid's value (`3`, `smudge`), or `pass:`/`bid:` and a
/// value.
fn write_call(a: &AnyVerb) -> String {
    match (a.verb.as_str(), &a.value) {
        ("pass", Value::Bool(true)) => "Pass".into(),
        ("bid", v) => value::write(v),
        _ => format!("{}:{}", a.verb, value::write(&a.value)),
    }
}

fn read_call(token: &str) -> Result<AnyVerb, String> {
    if token.eq_ignore_ascii_case("pass") {
        return Ok(AnyVerb {
            verb: "pass".into(),
            value: Value::Bool(true),
        });
    }
    if token.eq_ignore_ascii_case("ap") {
        return Err("'AP' (all pass) is not read: write each seat's Pass".into());
    }
    match token.split_once(':') {
        Some((verb, v)) if is_verb(verb) => {
            if !CALLS.contains(&verb) {
                return Err(format!(
                    "'{verb}' is not a call: the auction holds pass and bid; other actions go in [ArbiterActions]"
                ));
            }
            Ok(AnyVerb {
                verb: verb.into(),
                value: value::read(v)?,
            })
        }
        _ => Ok(AnyVerb {
            verb: "bid".into(),
            value: value::read(token)?,
        }),
    }
}

/// The three sections that hold the actions, read from their tags.
struct Sections {
    auction: Option<(Seat, Position)>,
    calls: Vec<(AnyVerb, Position)>,
    /// The seat whose card each trick lists first (`[Play "W"]`).
    play: Option<Seat>,
    /// Each trick's cards by column (the play's seat first, then clockwise); `None` for `-`.
    tricks: Vec<[Option<(Card, Position)>; 4]>,
    /// Actions placed by their index: `(seat, action, where)`.
    placed: BTreeMap<usize, (Seat, AnyVerb, Position)>,
}

impl Sections {
    fn read(
        auction: Option<&Tag>,
        play: Option<&Tag>,
        actions: Option<&Tag>,
    ) -> Result<Sections, Refused> {
        let mut s = Sections {
            auction: None,
            calls: Vec::new(),
            play: None,
            tricks: Vec::new(),
            placed: BTreeMap::new(),
        };
        let data = |tag: &Tag| -> Vec<Token> {
            tag.data
                .iter()
                .filter(|t| !skipped(&t.text))
                .cloned()
                .collect()
        };
        if let Some(tag) = auction {
            let seat = compass(&tag.value).ok_or_else(|| {
                invalid(
                    "",
                    tag.value_at,
                    format!("'{}' is not a seat: expected N, E, S or W", tag.value),
                )
            })?;
            s.auction = Some((seat, tag.value_at));
            for t in data(tag) {
                let call = read_call(&t.text).map_err(|e| invalid("", t.at, e))?;
                s.calls.push((call, t.at));
            }
        }
        if let Some(tag) = play {
            s.play = Some(compass(&tag.value).ok_or_else(|| {
                invalid(
                    "",
                    tag.value_at,
                    format!("'{}' is not a seat: expected N, E, S or W", tag.value),
                )
            })?);
            let tokens = data(tag);
            if let Some(t) = tokens.chunks(4).last().filter(|c| c.len() < 4) {
                return Err(invalid(
                    "",
                    t[0].at,
                    "a trick lists four cards, one per seat from the play's seat clockwise ('-' for none)",
                ));
            }
            for trick in tokens.chunks(4) {
                let mut cards = [None; 4];
                for (k, t) in trick.iter().enumerate() {
                    if t.text != "-" {
                        let card = pbn_card(&t.text).ok_or_else(|| {
                            invalid(
                                "",
                                t.at,
                                format!(
                                    "'{}' is not a card: expected suit then rank (SA, HT, C2) or '-'",
                                    t.text
                                ),
                            )
                        })?;
                        cards[k] = Some((card, t.at));
                    }
                }
                s.tricks.push(cards);
            }
        }
        if let Some(tag) = actions {
            let tokens = tag.data.clone();
            if let Some(t) = tokens.chunks(3).last().filter(|c| c.len() < 3) {
                return Err(invalid(
                    "",
                    t[0].at,
                    "an action is written as its index, its seat and the action: 4 W trump:H",
                ));
            }
            for line in tokens.chunks(3) {
                let index: usize = line[0].text.parse().map_err(|_| {
                    invalid(
                        "",
                        line[0].at,
                        format!(
                            "'{}' is not an action's index (0 for the record's first action)",
                            line[0].text
                        ),
                    )
                })?;
                let pointer = format!("/actions/{index}");
                let seat: Seat = line[1]
                    .text
                    .parse()
                    .map_err(|e: String| invalid(&format!("{pointer}/seat"), line[1].at, e))?;
                let action =
                    read_action(&line[2].text).map_err(|e| invalid(&pointer, line[2].at, e))?;
                if s.placed.insert(index, (seat, action, line[0].at)).is_some() {
                    return Err(invalid(
                        &pointer,
                        line[0].at,
                        format!("action {index} is given twice"),
                    ));
                }
            }
        }
        Ok(s)
    }

    /// The record's actions, in order, with where each was written: an action placed by its index
    /// where it is; else the auction's next call while calls remain, made by the seat the engine
    /// says is due; else the card the play section gives the seat due in the trick in progress.
    fn place(self, mut replay: Replay) -> Result<(Vec<Action>, Vec<Position>), Refused> {
        let cards: usize = self.tricks.iter().flatten().flatten().count();
        let total = self.placed.len() + self.calls.len() + cards;
        if total > crate::record::MAX_ACTIONS {
            return Err(invalid(
                "/actions",
                Position { line: 1, column: 1 },
                format!(
                    "the text holds {total} actions: a record holds at most {}",
                    crate::record::MAX_ACTIONS
                ),
            ));
        }
        if let Some((&i, (_, _, at))) = self.placed.range(total..).next() {
            return Err(invalid(
                &format!("/actions/{i}"),
                *at,
                format!("action {i} is beyond the record's {total} actions (indexes from 0)"),
            ));
        }
        let mut tricks = self.tricks;
        let mut auction = self.auction;
        let mut calls = self.calls.into_iter();
        let mut placed = self.placed;
        let mut actions = Vec::with_capacity(total);
        let mut at = Vec::with_capacity(total);
        // After a record error no seat is due: the rest is placed as the text lists it (calls
        // clockwise, cards trick by trick from the play's seat), which the ruling never reads.
        let mut stopped = false;
        let mut last_call: Option<Seat> = None;
        for i in 0..total {
            let pointer = format!("/actions/{i}");
            let view = (!stopped).then(|| replay.table());
            let due = view
                .as_ref()
                .and_then(|v| (v.to_act.len() == 1).then(|| v.to_act[0]));
            let (action, where_) = if let Some((seat, kind, where_)) = placed.remove(&i) {
                (Action { seat, kind }, where_)
            } else if let Some((kind, where_)) = calls.next() {
                let seat = match (due, stopped) {
                    (Some(seat), _) => seat,
                    (None, true) => last_call
                        .map(|s| after(s, 1))
                        .or(auction.map(|(s, _)| s))
                        .unwrap_or(Seat::N),
                    (None, false) => return Err(unplaceable(&pointer, where_)),
                };
                if let Some((named, tag_at)) = auction.take()
                    && named != seat
                {
                    return Err(invalid(
                        &pointer,
                        tag_at,
                        format!(
                            "the auction's first call is {seat}'s (the seat due), not {named}'s"
                        ),
                    ));
                }
                last_call = Some(seat);
                (Action { seat, kind }, where_)
            } else {
                let play = self.play.expect("cards come with their [Play] tag");
                let next = tricks
                    .iter()
                    .flatten()
                    .enumerate()
                    .find_map(|(k, c)| c.map(|(_, at)| (k, at)));
                let (k, next_at) = next.expect("a card remains while actions do");
                let (seat, slot) = match (due, stopped) {
                    (_, true) => (after(play, k % 4), Some(k)),
                    (Some(seat), false) => {
                        let trick =
                            view.as_ref().and_then(|v| v.trick_number).unwrap_or(0) as usize;
                        let k = (trick * 4 + column(seat, play)).checked_sub(4);
                        let held =
                            k.filter(|&k| tricks.get(k / 4).is_some_and(|t| t[k % 4].is_some()));
                        let Some(k) = held else {
                            return Err(invalid(
                                &pointer,
                                next_at,
                                format!(
                                    "action {i}: {seat} is due to play to trick {trick}, and the play \
                                     section has no card of {seat}'s in that trick not yet placed"
                                ),
                            ));
                        };
                        (seat, Some(k))
                    }
                    (None, false) => return Err(unplaceable(&pointer, next_at)),
                };
                let k = slot.expect("a slot is found");
                let (card, where_) = tricks[k / 4][k % 4].take().expect("the slot holds a card");
                (Action::new(seat, "play", card), where_)
            };
            if !stopped && replay.apply(action.clone()).is_err() {
                stopped = true;
            }
            actions.push(action);
            at.push(where_);
        }
        Ok((actions, at))
    }
}

/// The refusal of a call or card the text leaves to the turn where no single seat is due.
fn unplaceable(pointer: &str, at: Position) -> Refused {
    invalid(
        pointer,
        at,
        "this call or card has no seat: no single seat is due to act here; give it in \
         [ArbiterActions] with its index and seat",
    )
}

/// Writes `record`, a hand of `game`, as a PBN text that reads back into the same record (it is
/// read back to make sure). Refused: a record the game refuses, a game PBN cannot carry, a
/// record the text cannot carry exactly (the error names the first part that would differ).
pub fn write(game: &dyn Game, record: &HandRecord) -> Result<String, Vec<FieldError>> {
    let options = Options::resolve(game.info().options, &record.options, "/options")?;
    fits(game, &options).map_err(|e| vec![FieldError::new(String::new(), e)])?;
    for (field, empty) in [
        ("/second_stock", record.second_stock.is_empty()),
        ("/shoe", record.shoe.is_empty()),
        ("/cut_card", record.cut_card.is_none()),
        ("/deals", record.deals.is_empty()),
    ] {
        if !empty {
            return Err(vec![FieldError::new(
                field.into(),
                "PBN carries a deal, face-up cards and a stock, not this".into(),
            )]);
        }
    }
    let numbered = std::iter::once(("/dealer".to_string(), record.dealer))
        .chain(record.deal.keys().map(|&s| (format!("/deal/{s}"), s)))
        .chain(record.players.keys().map(|&s| (format!("/players/{s}"), s)))
        .find(|(_, s)| !Seat::COMPASS.contains(s));
    if let Some((pointer, seat)) = numbered {
        return Err(vec![FieldError::new(
            pointer,
            format!(
                "PBN names the seats N, E, S, W: name {seat} as {} to write this record",
                Seat::COMPASS[seat.pos() % 4]
            ),
        )]);
    }
    let dealt = HandRecord {
        actions: Vec::new(),
        ..record.clone()
    };
    let mut replay = Replay::start(game, &dealt)?;

    let mut out = vec!["% PBN 2.1".to_string(), "% arbiter hand record".to_string()];
    let tag = |name: &str, value: &str| format!("[{name} \"{}\"]", text::escape(value));
    if let Some(id) = &record.game {
        out.push(tag(GAME, id));
    }
    if !record.options.is_empty() {
        out.push(tag(
            OPTIONS,
            &value::write_fields(&record.options.clone().into_iter().collect()),
        ));
    }
    if let Some(state) = &record.match_state {
        out.push(tag(
            MATCH_STATE,
            &value::write_fields(&match_state_fields(state)),
        ));
    }
    for (name, seat) in PLAYERS {
        if let Some(player) = record.players.get(&seat) {
            out.push(tag(name, player));
        }
    }
    out.push(tag(DEALER, &record.dealer.to_string()));
    let hands: Vec<String> = (0..4)
        .map(|k| after(record.dealer, k))
        .map(|seat| match record.deal.get(&seat) {
            None => "-".into(),
            Some(cards) => pbn_hand(cards),
        })
        .collect();
    out.push(tag(DEAL, &format!("{}:{}", record.dealer, hands.join(" "))));
    let orders: Vec<String> = record
        .deal
        .iter()
        .filter(|(_, cards)| **cards != in_pbn_order(cards))
        .map(|(seat, cards)| {
            let cards: Vec<String> = cards.iter().map(Card::to_string).collect();
            format!("{seat}:{}", cards.join(","))
        })
        .collect();
    if !orders.is_empty() {
        out.push(tag(DEAL_ORDER, &orders.join(" ")));
    }
    let cards = |cards: &[Card]| {
        cards
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !record.face_up.is_empty() {
        out.push(tag(FACE_UP, &cards(&record.face_up)));
    }
    if !record.stock.is_empty() {
        out.push(tag(STOCK, &cards(&record.stock)));
    }

    // Each action in its section: a call or a card played by the seat due (the engine's turn),
    // calls before the first card; any other action by its index.
    let mut calls: Vec<(Seat, String)> = Vec::new();
    let mut play: Option<Seat> = None;
    let mut tricks: Vec<[Option<Card>; 4]> = Vec::new();
    let mut placed: Vec<String> = Vec::new();
    let mut stopped = false;
    for (i, a) in record.actions.iter().enumerate() {
        let view = (!stopped).then(|| replay.table());
        let due = view
            .as_ref()
            .filter(|v| v.to_act == [a.seat])
            .map(|v| v.trick_number);
        let card = (a.kind.verb == "play")
            .then(|| a.kind.value.as_str())
            .flatten()
            .and_then(|s| s.parse::<Card>().ok().filter(|c| c.to_string() == s));
        let mut in_section = false;
        if let (Some(Some(trick)), Some(card)) = (due, card)
            && trick >= 1
            && Seat::COMPASS.contains(&a.seat)
        {
            let first = *play.get_or_insert(a.seat);
            let t = trick as usize - 1;
            if tricks.len() <= t {
                tricks.resize(t + 1, [None; 4]);
            }
            let slot = &mut tricks[t][column(a.seat, first)];
            if slot.is_none() {
                *slot = Some(card);
                in_section = true;
            }
        } else if due.is_some() && play.is_none() && CALLS.contains(&a.kind.verb.as_str()) {
            calls.push((a.seat, write_call(&a.kind)));
            in_section = true;
        }
        if !in_section {
            placed.push(format!("{i} {} {}", a.seat, write_action(&a.kind)));
        }
        if !stopped && replay.apply(a.clone()).is_err() {
            stopped = true;
        }
    }
    if let Some((first, _)) = calls.first() {
        out.push(tag(AUCTION, &first.to_string()));
        for line in calls.chunks(4) {
            let line: Vec<&str> = line.iter().map(|(_, c)| c.as_str()).collect();
            out.push(line.join(" "));
        }
    }
    if let Some(first) = play {
        out.push(tag(PLAY, &first.to_string()));
        for trick in &tricks {
            let line: Vec<String> = trick
                .iter()
                .map(|c| c.map_or("-".into(), write_pbn_card))
                .collect();
            out.push(line.join(" "));
        }
    }
    if !placed.is_empty() {
        out.push(tag(ACTIONS, ""));
        out.extend(placed);
    }
    let text = out.join("\n") + "\n";
    exactly(game, record, &text)?;
    Ok(text)
}

/// Refuses a text that does not read back into `record`, naming the first part that differs.
fn exactly(game: &dyn Game, record: &HandRecord, text: &str) -> Result<(), Vec<FieldError>> {
    let game = crate::games::find(game.info().id).expect("a registered game");
    let back = read(text, Some(game)).map_err(|r| {
        vec![FieldError::new(
            String::new(),
            format!(
                "PBN cannot carry this record exactly: its text does not read back ({})",
                r.errors().first().map_or("", |e| e.detail.as_str())
            ),
        )]
    })?;
    let (a, b) = (
        serde_json::to_value(record).expect("a record is JSON"),
        serde_json::to_value(&back.record).expect("a record is JSON"),
    );
    match first_difference(&a, &b, String::new()) {
        None => Ok(()),
        Some(pointer) => Err(vec![FieldError::new(
            pointer.clone(),
            format!(
                "PBN cannot carry this record exactly: {} would read back as {}",
                a.pointer(&pointer).unwrap_or(&Value::Null),
                b.pointer(&pointer).unwrap_or(&Value::Null)
            ),
        )]),
    }
}

/// The pointer of the first place where `a` and `b` differ.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let at = format!("{at}/{}", crate::input::escape(k));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(p, q, at),
                    _ => Some(at),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, format!("{at}/{i}"))),
        _ => (a != b).then_some(at),
    }
}

/// The fields of a match state as written: the common ones where they differ from a match's
/// start (reading leaves them there), the game's own always.
fn match_state_fields(state: &MatchState) -> serde_json::Map<String, Value> {
    let start = serde_json::to_value(MatchState::default()).expect("a match state is JSON");
    let Value::Object(fields) = serde_json::to_value(state).expect("a match state is JSON") else {
        unreachable!("a match state is an object")
    };
    fields
        .into_iter()
        .filter(|(k, v)| start.get(k) != Some(v))
        .collect()
}

/// A seat's cards in PBN's order: by suit S H D C, highest first.
fn in_pbn_order(cards: &[Card]) -> Vec<Card> {
    let mut sorted = cards.to_vec();
    sorted.sort_by_key(|c| (c.suit().map(|s| s as u8), std::cmp::Reverse(c.rank())));
    sorted
}

/// A seat's hand as `[Deal]` writes it: `KQT2.AT.J6542.85`.
fn pbn_hand(cards: &[Card]) -> String {
    let sorted = in_pbn_order(cards);
    Suit::ALL
        .iter()
        .map(|&suit| {
            sorted
                .iter()
                .filter(|c| c.suit() == Some(suit))
                .filter_map(|c| c.rank().map(Rank::letter))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(".")
}
