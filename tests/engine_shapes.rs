//! Shapes of the games to come that the registered games do not use, carried by the engine itself
//! (issue 10): packs with copies dealt and replayed as multisets (a 208-card pack of four packs at
//! four seats, as Calypso's; a 270-card pack of five packs with ten jokers at six seats — the size
//! of Hand and Foot's pack only: it is played here as a plain trick game, which proves that the
//! engine deals, holds and replays so many copies, not anything of Hand and Foot's own rules,
//! which are a rummy game's), fixed teams at six seats (three pairs, two teams of
//! three), a 78-card tarot pack with its trumps and the Fool played by a declarer against three
//! (camps, an ally revealed by a called card), a table that shrinks between hands (Knockout Whist's
//! shape) and a hand played in turns, not tricks. Every game here is a test's own, not a game of
//! the service. The plain one: tricks, follow suit, the highest card of the led suit wins, jokers
//! above everything (the first joker of a trick wins), one point per trick.

use arbiter::cards::{Card, CardCounts, Holding, Pack, Rank, packs};
use arbiter::engine::{
    self, Adjudication, FieldError, GameInfo, HandState, Locus, MatchState, NoDetails, Options,
    RankOrder, RecordError, Rules, ScoreSource, Table, TableView, Tables, Trick, TrickPlay,
    TrickReport, deal, must_follow_suit, trump_or_led,
};
use arbiter::record::{Action, HandRecord, Verbs};
use proptest::prelude::*;
use serde_json::json;

arbiter::verbs! {
    /// The plain game's verbs.
    #[derive(Copy)]
    pub(crate) enum Verb in "Plain" {
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick.",
    }
}

/// A plain trick game over `pack` at `table`.
struct Plain {
    info: &'static GameInfo,
    pack: fn() -> Pack,
    table: Table,
}

/// A test game's description: it is played at `table` only.
fn info(id: &'static str, table: Table, verbs: &'static [&'static str]) -> &'static GameInfo {
    Box::leak(Box::new(GameInfo {
        id,
        name: id,
        tables: Tables(Box::leak(Box::new([table]))),
        deck: "test",
        game_target: 0,
        options: &[],
        rules: "tests/engine_shapes.rs",
        irregularities: &["revoke"],
        record_errors: &[
            "out_of_turn",
            "card_not_held",
            "card_played_twice",
            "invalid_correct",
            "action_after_end",
            "incomplete_hand",
            "not_higher",
            "cannot_pass",
        ],
        events: &["played", "passed", "went_out"],
        titles: arbiter::engine::Titles(&[]),
        score_codes: &["tricks", "contract", "cards_left"],
        verbs,
    }))
}

fn strength(led: Option<arbiter::cards::Suit>, card: Card) -> Option<u16> {
    if card == Card::JOKER {
        return Some(0x300);
    }
    trump_or_led(card, led?, None, &RankOrder::ACE_HIGH)
}

fn judge(table: Table) -> impl Fn(&Trick, CardCounts, Card) -> Option<engine::Fault> {
    move |trick, hand, card| must_follow_suit(table, "test §3", trick, hand, card)
}

impl Rules for Plain {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn table(&self, _: &Options) -> Table {
        self.table
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        let pack = (self.pack)();
        deal::Setup {
            hand: deal::HandSize::Each(pack.len() as usize / self.table.size),
            counted_by: None,
            pack,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        _: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = (self.pack)();
        let dealt = deal::check_holdings::<CardCounts, _>(record, table, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let tricks = pack.len() as usize / table.players();
        Ok(Box::new(PlainHand {
            play: TrickPlay::new(table, dealt.hands, table.left(record.dealer)),
            tricks,
            adj: Adjudication::new(self.info.id, record.dealer, before, tricks),
        }))
    }
}

#[derive(Clone)]
struct PlainHand {
    play: TrickPlay<CardCounts>,
    tricks: usize,
    adj: Adjudication,
}

impl HandState<Verb> for PlainHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.adj.tricks.len() == self.tricks {
            return Err(RecordError::after_end(index, action, "the hand is over"));
        }
        let table = self.play.table;
        match action.kind {
            Verb::Play(card) => {
                self.play
                    .play_judged(index, action.seat, card, judge(table))?;
            }
            Verb::Correct(card) => self.play.correct(index, action.seat, card, judge(table))?,
        }
        if self.play.is_complete() {
            let led = self.play.trick.led().and_then(|c| c.suit());
            let pos = self.play.trick.winner_by(|c| strength(led, c)).unwrap();
            let winner = self.play.trick.plays()[pos].seat;
            let (trick, established) = self.play.close_trick(winner);
            for e in established {
                self.adj.irregularities.push(e.irregularity("none".into()));
            }
            self.adj.tally[table.side(winner)].tricks += 1;
            self.adj.tricks.push(TrickReport::new(trick, winner));
        }
        Ok(())
    }

    fn view(&self) -> TableView {
        TableView::new(
            "play",
            self.play.to_play().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        )
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.play.to_play().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        self.play.candidates(Verb::Play, Verb::Correct)
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let mut adj = self.adj;
        let table = self.play.table;
        if let Some(e) = error {
            adj.record_error(e);
        } else if adj.tricks.len() < self.tricks {
            adj.record_error(RecordError::incomplete_hand(
                self.play.to_play(),
                "short".into(),
            ));
        } else {
            for side in table.sides() {
                let n = adj.tally[side].tricks as i32;
                adj.score(side, n, ScoreSource::Tricks, "tricks", None);
            }
            adj.settle();
        }
        adj
    }
}

fn calypso() -> Plain {
    Plain {
        info: info("test-208", Table::solo(4), Verb::VERBS),
        pack: packs::calypso208,
        table: Table::solo(4),
    }
}

fn hand_and_foot() -> Plain {
    Plain {
        info: info("test-270", Table::solo(6), Verb::VERBS),
        pack: packs::hand_and_foot270,
        table: Table::solo(6),
    }
}

/// A random deal of the whole pack, every copy to some seat, dealt round the table.
fn random_deal(game: &Plain, seed: u64) -> HandRecord {
    let pack = (game.pack)();
    let mut cards: Vec<Card> = pack
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c, pack.count(c) as usize))
        .collect();
    shuffle(&mut cards, seed);
    let table = game.table;
    let mut deal = serde_json::Map::new();
    for seat in table.seats() {
        let hand: Vec<String> = cards
            .iter()
            .skip(seat.pos())
            .step_by(table.players())
            .map(|c| c.to_string())
            .collect();
        deal.insert(seat.to_string(), json!(hand));
    }
    serde_json::from_value(json!({"dealer": "P1", "deal": deal})).unwrap()
}

/// Shuffles `cards` by `seed` (xorshift: the same seed, the same order).
fn shuffle(cards: &mut [Card], seed: u64) {
    let mut state = seed | 1;
    for i in (1..cards.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        cards.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

/// Plays a deal out by the engine's own legal actions, picking by `seed`.
fn play_out(game: &Plain, mut record: HandRecord, seed: u64) -> HandRecord {
    let mut pick = seed;
    loop {
        let view = engine::legal_actions(game, &record).expect("a legal position");
        let plays: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb == "play")
            .collect();
        if plays.is_empty() {
            return record;
        }
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        record
            .actions
            .push(plays[(pick >> 33) as usize % plays.len()].clone());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Every copy of the pack is dealt, held and played once; identical cards are interchangeable.
    #[test]
    fn packs_with_copies_deal_and_replay(seed in any::<u64>(), big in any::<bool>()) {
        let game = if big { hand_and_foot() } else { calypso() };
        let pack = (game.pack)();
        let record = play_out(&game, random_deal(&game, seed), seed);
        let a = engine::adjudicate(&game, &record).expect("accepted");
        prop_assert!(a.record_error.is_none(), "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), pack.len() as usize / game.table.players());
        let mut played = CardCounts::default();
        for t in &a.tricks {
            for p in t.plays.plays() {
                played.insert(p.card);
            }
        }
        prop_assert_eq!(played, every_copy(&pack));
        let score = a.hand_score.unwrap();
        prop_assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), a.tricks.len() as i32);
    }
}

/// Every copy of `pack`, as a multiset.
fn every_copy(pack: &Pack) -> CardCounts {
    let mut all = CardCounts::default();
    for c in pack.cards.iter() {
        all.add(c, pack.count(c) as u8);
    }
    all
}

/// The four packs dealt in encoding order, 52 cards a seat: P1 holds the four copies of every spade,
/// P2 every heart, P3 every diamond, P4 every club.
fn suits_by_seat() -> serde_json::Value {
    let pack = packs::calypso208();
    let cards: Vec<String> = every_copy(&pack).iter().map(|c| c.to_string()).collect();
    let deal: serde_json::Map<String, serde_json::Value> = (0..4)
        .map(|i| (format!("P{}", i + 1), json!(cards[i * 52..(i + 1) * 52])))
        .collect();
    json!({"dealer": "P4", "deal": deal})
}

/// A seat holding four copies of AS plays all four; a fifth is a card played twice. A fifth copy in
/// the deal of a four-pack game is refused where it stands.
#[test]
fn copies_are_counted_in_deal_and_play() {
    let game = calypso();
    let mut v = suits_by_seat();
    let trick = |n: usize| {
        vec![
            json!({"seat": "P1", "play": "AS"}),
            json!({"seat": "P2", "play": format!("{}H", ["2", "3", "4", "5", "6"][n])}),
            json!({"seat": "P3", "play": format!("{}D", ["2", "3", "4", "5", "6"][n])}),
            json!({"seat": "P4", "play": format!("{}C", ["2", "3", "4", "5", "6"][n])}),
        ]
    };
    // Four tricks: P1 leads each of its aces of spades and wins, the others void in spades.
    v["actions"] = json!((0..4).flat_map(trick).collect::<Vec<_>>());
    let record: HandRecord = serde_json::from_value(v.clone()).unwrap();
    let a = engine::adjudicate(&game, &record).unwrap();
    assert_eq!(a.tricks.len(), 4);
    // At four seats P1..P4 are N E S W: P1 is position 0.
    assert!(
        a.tricks
            .iter()
            .all(|t| t.winner.map(|w| w.pos()) == Some(0))
    );
    assert_eq!(a.record_error.unwrap().code, "incomplete_hand");
    // A fifth ace of spades from P1 is one more than he held.
    v["actions"] = json!((0..5).flat_map(trick).collect::<Vec<_>>());
    let record: HandRecord = serde_json::from_value(v.clone()).unwrap();
    let e = engine::adjudicate(&game, &record)
        .unwrap()
        .record_error
        .unwrap();
    assert_eq!((e.code, e.action_index), ("card_played_twice", Some(16)));
    // A fifth ace of spades in the deal (in P2's hand, instead of a 2H) is refused there.
    v["deal"]["P2"][0] = json!("AS");
    let record: HandRecord = serde_json::from_value(v).unwrap();
    let e = engine::adjudicate(&game, &record).expect_err("refused");
    assert!(
        e.iter()
            .any(|f| f.pointer == "/deal/P2/0" && f.detail.contains("more often")),
        "{e:?}"
    );
}

// ---- fixed teams at six seats ---------------------------------------------------------------

/// 48 cards (no 2s): eight each at six seats.
fn pack48() -> Pack {
    use Rank::*;
    Pack::suited(
        "48-card pack",
        &[
            Ace, King, Queen, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three,
        ],
    )
}

fn six_in(table: Table, id: &'static str) -> Plain {
    Plain {
        info: info(id, table, Verb::VERBS),
        pack: pack48,
        table,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Partners sit every `6 / team` seats (README "Seats": P1+P4, P2+P5, P3+P6; in threes
    /// P1+P3+P5, P2+P4+P6): a team's tricks are those its members won, and only the teams score.
    #[test]
    fn six_seats_score_by_team(seed in any::<u64>(), threes in any::<bool>()) {
        let (table, teams) = if threes { (Table::teams(6, 3), 2) } else { (Table::SIX_IN_PAIRS, 3) };
        let game = six_in(table, "test-six");
        let record = play_out(&game, random_deal(&game, seed), seed);
        let a = engine::adjudicate(&game, &record).expect("accepted");
        prop_assert!(a.record_error.is_none(), "{:?}", a.record_error);
        prop_assert_eq!(a.tricks.len(), 8);
        let score = a.hand_score.unwrap();
        let names: Vec<String> = score.sides().map(|s| s.to_string()).collect();
        let expected: &[&str] = if threes { &["P1+P3+P5", "P2+P4+P6"] } else { &["P1+P4", "P2+P5", "P3+P6"] };
        prop_assert_eq!(names, expected);
        for (i, side) in score.sides().enumerate() {
            // Team i holds the seats at positions i, i + teams, ...
            let won = a.tricks.iter().filter(|t| t.winner.unwrap().pos() % teams == i).count();
            prop_assert_eq!(score[side], won as i32);
            prop_assert_eq!(a.tally[side].tricks as usize, won);
        }
    }
}

/// One trick at six seats, by hand: P1 leads 3S, P2 4S, P3 5S, P4 AS, P5 6S, P6 7S. P4's ace wins:
/// the trick is P1+P4's with three pairs, P2+P4+P6's with two teams of three.
#[test]
fn a_trick_won_by_p4_counts_for_his_team() {
    let trick = ["3S", "4S", "5S", "AS", "6S", "7S"];
    let mut rest: Vec<String> = pack48()
        .cards
        .iter()
        .map(|c| c.to_string())
        .filter(|c| !trick.contains(&c.as_str()))
        .collect();
    let mut deal = serde_json::Map::new();
    for (i, card) in trick.iter().enumerate() {
        let mut hand: Vec<String> = rest.drain(..7).collect();
        hand.push(card.to_string());
        deal.insert(format!("P{}", i + 1), json!(hand));
    }
    let actions: Vec<_> = trick
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"seat": format!("P{}", i + 1), "play": c}))
        .collect();
    let record: HandRecord =
        serde_json::from_value(json!({"dealer": "P6", "deal": deal, "actions": actions})).unwrap();
    for (table, team) in [
        (Table::SIX_IN_PAIRS, "P1+P4"),
        (Table::teams(6, 3), "P2+P4+P6"),
    ] {
        let a = engine::adjudicate(&six_in(table, "test-six"), &record).unwrap();
        assert_eq!(a.record_error.as_ref().unwrap().code, "incomplete_hand");
        assert_eq!(a.tricks[0].winner.unwrap().to_string(), "P4");
        let tally = serde_json::to_value(&a.tally).unwrap();
        assert_eq!(tally[team]["tricks"], 1, "{tally}");
        let others: u64 = table
            .sides()
            .filter(|s| s.to_string() != team)
            .map(|s| tally[s.to_string()]["tricks"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(others, 0, "{tally}");
    }
}

// ---- the tables each game states -----------------------------------------------------------

/// Every combination of the values of `specs`' flags and choices (counts do not choose a table).
fn option_combinations(
    specs: &'static [engine::OptionSpec],
) -> Vec<std::collections::BTreeMap<String, serde_json::Value>> {
    let mut all = vec![std::collections::BTreeMap::new()];
    for spec in specs {
        let values: Vec<serde_json::Value> = match spec.kind {
            engine::OptionKind::Flag { .. } => vec![json!(false), json!(true)],
            engine::OptionKind::Choice { values, .. } => values.iter().map(|v| json!(v)).collect(),
            engine::OptionKind::Count { .. } => continue,
        };
        all = all
            .into_iter()
            .flat_map(|m| {
                values.iter().map(move |v| {
                    let mut m = m.clone();
                    m.insert(spec.name.to_string(), v.clone());
                    m
                })
            })
            .collect();
    }
    all
}

/// `GET /v1/games` states every table a game is played at (issue 10): each table its options give
/// is listed, the default options' first, and no other is.
#[test]
fn every_game_states_every_table_it_is_played_at() {
    for game in arbiter::games::all() {
        let info = game.info();
        let listed = info.tables.0;
        let mut reached = vec![false; listed.len()];
        let default = Options::resolve(info.options, &Default::default(), "").unwrap();
        assert_eq!(
            game.table(&default),
            listed[0],
            "{}: default table",
            info.id
        );
        for raw in option_combinations(info.options) {
            // Some combinations are refused (Briscola's removed 2 with four players): no table.
            let Ok(options) = Options::resolve(info.options, &raw, "") else {
                continue;
            };
            let table = game.table(&options);
            let i = listed.iter().position(|&t| t == table);
            assert!(
                i.is_some(),
                "{}: {raw:?} gives an unlisted table {table:?}",
                info.id
            );
            reached[i.unwrap()] = true;
        }
        assert!(
            reached.iter().all(|&r| r),
            "{}: a listed table no options give",
            info.id
        );
    }
}

/// Briscola (briscola.md §1): 2, 3 or 4 players, partnerships only with 4.
#[test]
fn briscola_states_its_three_tables() {
    let info = serde_json::to_value(arbiter::games::find("briscola").unwrap().info()).unwrap();
    let tables = info["tables"].as_array().unwrap();
    let players: Vec<u64> = tables
        .iter()
        .map(|t| t["players"].as_u64().unwrap())
        .collect();
    assert_eq!(players, [4, 2, 3]);
    assert_eq!(
        tables[0]["sides"],
        json!({"NS": ["N", "S"], "EW": ["E", "W"]})
    );
    assert_eq!(
        tables[2]["sides"],
        json!({"P1": ["P1"], "P2": ["P2"], "P3": ["P3"]})
    );
    assert_eq!(tables[1]["seats"], json!(["P1", "P2"]));
    assert_eq!(
        (info["players"].clone(), info["partnerships"].clone()),
        (json!(4), json!(true))
    );
    assert_eq!(info["seats"], json!(["N", "E", "S", "W", "P1", "P2", "P3"]));
    let truco = serde_json::to_value(arbiter::games::find("truco").unwrap().info()).unwrap();
    assert_eq!(truco["tables"][0]["direction"], "counterclockwise");
}

// ---- a table that shrinks between hands -----------------------------------------------------

/// Knockout Whist's shape at four seats: hand `k` (from 0) deals `3 - k` cards to each seat still
/// in; the dealer leads, plain tricks, no trump; one point per trick. A seat that takes no trick is
/// out. The seat with most tricks deals next (on a tie the first from the dealer, clockwise); the
/// last seat in wins.
mod knockout {
    use super::*;
    use arbiter::cards::CardSet;
    use arbiter::engine::Seat;

    pub(crate) struct Knockout(pub &'static GameInfo);

    pub const TABLE: Table = Table::solo(4).shrinking();

    pub fn game() -> Knockout {
        Knockout(info("test-knockout", TABLE, Verb::VERBS))
    }

    impl Rules for Knockout {
        type Verb = Verb;
        type Details = NoDetails;
        type Carried = NoDetails;

        fn info(&self) -> &'static GameInfo {
            self.0
        }

        fn table(&self, _: &Options) -> Table {
            TABLE
        }

        fn setup(&self, _: &Options) -> deal::Setup {
            // The first hand's three cards a seat; later hands deal fewer (checked in `start`).
            deal::Setup {
                pack: packs::standard52(),
                hand: deal::HandSize::Each(3),
                counted_by: Some("one card fewer each hand"),
                parts: &[],
            }
        }

        fn start(
            &self,
            record: &HandRecord<Verb>,
            _: &Options,
            table: Table,
            before: &MatchState,
        ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
            let dealt = deal::check_cards(record, table, &packs::standard52())?;
            let cards = 3usize.saturating_sub(before.hands_played as usize).max(1);
            deal::check_counts(record, table, cards)?;
            Ok(Box::new(Hand {
                play: TrickPlay::new(table, dealt.hands, record.dealer),
                tricks: cards,
                adj: Adjudication::new(self.0.id, record.dealer, before, cards),
            }))
        }
    }

    #[derive(Clone)]
    struct Hand {
        play: TrickPlay<CardSet>,
        tricks: usize,
        adj: Adjudication,
    }

    fn judge(table: Table) -> impl Fn(&Trick, CardSet, Card) -> Option<engine::Fault> {
        move |trick, hand, card| must_follow_suit(table, "test §3", trick, hand, card)
    }

    impl HandState<Verb> for Hand {
        fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
            if self.adj.tricks.len() == self.tricks {
                return Err(RecordError::after_end(index, action, "the hand is over"));
            }
            let table = self.play.table;
            match action.kind {
                Verb::Play(card) => {
                    self.play
                        .play_judged(index, action.seat, card, judge(table))?
                }
                Verb::Correct(card) => self.play.correct(index, action.seat, card, judge(table))?,
            }
            if self.play.is_complete() {
                let winner = self
                    .play
                    .trick
                    .trump_or_led_winner(None, &RankOrder::ACE_HIGH);
                let winner = winner.expect("suited cards");
                let (trick, established) = self.play.close_trick(winner);
                for e in established {
                    self.adj.irregularities.push(e.irregularity("none".into()));
                }
                self.adj.tally[table.side(winner)].tricks += 1;
                self.adj.tricks.push(TrickReport::new(trick, winner));
            }
            Ok(())
        }

        fn view(&self) -> TableView {
            TableView::new(
                "play",
                self.play.to_play().into_iter().collect(),
                &self.play,
                &self.adj.match_after,
            )
        }

        fn locus(&self) -> Locus {
            Locus::of_play(&self.play, self.play.to_play().is_none())
        }

        fn candidates(&self) -> Vec<Action<Verb>> {
            self.play.candidates(Verb::Play, Verb::Correct)
        }

        fn faulted(&self, index: usize) -> bool {
            self.adj.faulted(index) || self.play.faulted(index)
        }

        fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
            let mut adj = self.adj;
            let table = self.play.table;
            if let Some(e) = error {
                adj.record_error(e);
                return adj;
            }
            if adj.tricks.len() < self.tricks {
                adj.record_error(RecordError::incomplete_hand(
                    self.play.to_play(),
                    "short".into(),
                ));
                return adj;
            }
            for seat in table.seats() {
                let n = adj.tally[table.side(seat)].tricks as i32;
                adj.score(table.side(seat), n, ScoreSource::Tricks, "tricks", None);
            }
            adj.settle();
            let played = adj.match_after.hands_played;
            // The dealer first, then clockwise: the first with most tricks deals next.
            let mut order = vec![adj.dealer];
            while order.len() < table.players() {
                order.push(table.left(*order.last().unwrap()));
            }
            let tricks = |s: Seat| adj.tally[table.side(s)].tricks;
            let most = order.iter().map(|&s| tricks(s)).max().unwrap();
            let next = *order.iter().find(|&&s| tricks(s) == most).unwrap();
            for &s in &order {
                if tricks(s) == 0 {
                    adj.match_after.out.insert(s, played);
                }
            }
            adj.match_after.next_dealer = Some(next);
            let left: Vec<Seat> = order.into_iter().filter(|&s| tricks(s) > 0).collect();
            if left.len() == 1 || played == 3 {
                let winner = (left.len() == 1).then(|| table.side(left[0]));
                adj.match_after.end_game(winner);
            }
            adj
        }
    }
}

/// The knockout match by hand (the deals below; N deals the first hand and leads):
/// hand 1, three cards each. N AS 2H 2D, E 3S AH 3D, S 4S 4H AD, W 5S 5H 5D. N's AS takes the spades,
/// N leads 2H and E's AH takes it, E leads 3D and S's AD takes it: N, E, S one trick each, W none,
/// so W is out after hand 1; scores N 1 E 1 S 1 W 0; N (first of the tied, the dealer) deals.
/// Hand 2, two cards each to N, E, S only. N 2S 2C, E 3S AC, S AS 3C. N leads 2S, E 3S, S AS wins;
/// S leads 3C and the next seat is N (W is out), N 2C, E AC wins. N took none: out after hand 2.
/// Scores N 1 E 2 S 2 W 0; E and S tie on one trick, E comes first from N: E deals.
/// Hand 3, one card each to E and S. E (dealer) leads KH, S QH: E wins, S is out, E is the last
/// seat in: game over, E (side P2) wins with 3; the scores of the seats out stay (N 1, W 0).
#[test]
fn a_table_shrinks_hand_by_hand() {
    let game = knockout::game();
    let hands = json!([
        {"dealer": "N",
         "deal": {"N": ["AS", "2H", "2D"], "E": ["3S", "AH", "3D"], "S": ["4S", "4H", "AD"], "W": ["5S", "5H", "5D"]},
         "actions": [
            {"seat": "N", "play": "AS"}, {"seat": "E", "play": "3S"}, {"seat": "S", "play": "4S"}, {"seat": "W", "play": "5S"},
            {"seat": "N", "play": "2H"}, {"seat": "E", "play": "AH"}, {"seat": "S", "play": "4H"}, {"seat": "W", "play": "5H"},
            {"seat": "E", "play": "3D"}, {"seat": "S", "play": "AD"}, {"seat": "W", "play": "5D"}, {"seat": "N", "play": "2D"}]},
        {"dealer": "N",
         "deal": {"N": ["2S", "2C"], "E": ["3S", "AC"], "S": ["AS", "3C"]},
         "actions": [
            {"seat": "N", "play": "2S"}, {"seat": "E", "play": "3S"}, {"seat": "S", "play": "AS"},
            {"seat": "S", "play": "3C"}, {"seat": "N", "play": "2C"}, {"seat": "E", "play": "AC"}]},
        {"dealer": "E",
         "deal": {"E": ["KH"], "S": ["QH"]},
         "actions": [{"seat": "E", "play": "KH"}, {"seat": "S", "play": "QH"}]}
    ]);
    let m: arbiter::record::MatchRecord = serde_json::from_value(json!({"hands": hands})).unwrap();
    let report = engine::adjudicate_match(&game, &m).expect("accepted");
    for a in &report.hands {
        assert!(a.record_error.is_none(), "{:?}", a.record_error);
    }
    let state = serde_json::to_value(&report.hands[0].match_after).unwrap();
    assert_eq!(state["out"], json!({"W": 1}));
    assert_eq!(state["next_dealer"], "N");
    let second = &report.hands[1];
    assert_eq!(second.tricks[1].plays.plays()[1].seat.to_string(), "N");
    let state = serde_json::to_value(&second.match_after).unwrap();
    assert_eq!(state["out"], json!({"N": 2, "W": 1}));
    assert_eq!(state["next_dealer"], "E");
    let last = serde_json::to_value(&report.final_state).unwrap();
    assert_eq!(last["scores"], json!({"N": 1, "E": 3, "S": 2, "W": 0}));
    assert_eq!(last["out"], json!({"N": 2, "S": 3, "W": 1}));
    assert_eq!(
        (last["game_over"].clone(), last["winners"].clone()),
        (json!(true), json!(["E"]))
    );

    // Hand 2 dealt to W as well, or with an action by W, is refused where it stands.
    let mut bad = m.clone();
    bad.hands[1].deal.insert(
        knockout_seat("W"),
        vec!["KD".parse().unwrap(), "KC".parse().unwrap()],
    );
    let e = engine::adjudicate_match(&game, &bad).expect_err("W is out");
    assert!(e.iter().any(|f| f.pointer == "/hands/1/deal/W"), "{e:?}");
    let mut bad: serde_json::Value = json!({"hands": hands});
    bad["hands"][1]["actions"][3]["seat"] = json!("W");
    let bad: arbiter::record::MatchRecord = serde_json::from_value(bad).unwrap();
    let e = engine::adjudicate_match(&game, &bad).expect_err("W is out");
    assert!(
        e.iter()
            .any(|f| f.pointer == "/hands/1/actions/3/seat" && f.detail.contains("W out")),
        "{e:?}"
    );
}

fn knockout_seat(s: &str) -> arbiter::engine::Seat {
    s.parse().unwrap()
}

/// A match state naming seats out: refused by a game whose seats do not leave, and where it does
/// not fit (a seat out after more hands than were played, the dealer out, one seat left).
#[test]
fn a_match_state_with_seats_out_is_checked() {
    let hand = |state: serde_json::Value, dealer: &str| -> HandRecord {
        let deal: serde_json::Map<String, serde_json::Value> =
            [("N", "2S"), ("E", "3S"), ("S", "4S"), ("W", "5S")]
                .iter()
                .filter(|(s, _)| *s != "W")
                .map(|(s, c)| (s.to_string(), json!([c])))
                .collect();
        serde_json::from_value(json!({"dealer": dealer, "deal": deal, "match_state": state}))
            .unwrap()
    };
    let game = knockout::game();
    let pointers = |r: HandRecord| -> Vec<String> {
        engine::adjudicate(&game, &r)
            .map(|_| Vec::new())
            .unwrap_or_else(|e| e.into_iter().map(|f| f.pointer).collect())
    };
    // Three hands played, W out after the first: the fourth deals one card to N, E, S.
    assert_eq!(
        pointers(hand(json!({"hands_played": 3, "out": {"W": 1}}), "N")),
        Vec::<String>::new()
    );
    assert_eq!(
        pointers(hand(json!({"hands_played": 0, "out": {"W": 1}}), "N")),
        ["/match_state/out/W"]
    );
    assert_eq!(
        pointers(hand(json!({"hands_played": 3, "out": {"W": 1}}), "W")),
        ["/dealer"]
    );
    assert_eq!(
        pointers(hand(
            json!({"hands_played": 3, "out": {"W": 1, "E": 2, "S": 2}}),
            "N"
        )),
        ["/match_state/out"]
    );
    let malilla = arbiter::games::find("malilla").unwrap();
    let r: HandRecord = serde_json::from_value(json!({
        "dealer": "N", "deal": {}, "match_state": {"out": {"W": 0}}
    }))
    .unwrap();
    let e = engine::adjudicate(malilla, &r).expect_err("no seat leaves in Malilla");
    assert!(e.iter().any(|f| f.pointer == "/match_state/out"), "{e:?}");
}

// ---- a tarot pack, a declarer against three -------------------------------------------------

/// A tarot trick game at four seats, each his own side, the 78-card pack: 18 cards each and six in
/// the `stock`. A suit lead is followed in suit, else with a trump if the hand holds one; a trump
/// lead with a trump; the Fool may be played at any time and never wins (a Fool lead leaves the
/// next card to set what follows). The highest trump wins, else the highest card of the suit led
/// (K Q C J T .. A). Eldest (the dealer's left) declares and leads; the holder of T21 is his ally,
/// known when he plays it (none when eldest holds it or it lies in the stock: he plays alone). A
/// camp with 9 or more of the 18 tricks makes it: each defender pays 1 to each seat of the
/// declarer's camp, else each seat of it pays 1 to each defender.
mod tarot {
    use super::*;
    use arbiter::cards::{CardClass, CardSet, Suit};
    use arbiter::engine::Seat;

    pub(crate) struct Tarot(pub &'static GameInfo);

    pub fn game() -> Tarot {
        Tarot(info("test-tarot", Table::solo(4), Verb::VERBS))
    }

    pub const ORDER: RankOrder = {
        use Rank::*;
        RankOrder::new(&[
            King, Queen, Cavalier, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three, Two, Ace,
        ])
    };
    pub const WORLD: u8 = 21;

    pub fn is_trump(card: Card) -> bool {
        matches!(card.class(), CardClass::TarotTrump(_))
    }

    /// What a trick's cards must follow: the first card that is not the Fool.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Led {
        Suit(Suit),
        Trumps,
    }

    pub fn led(cards: impl IntoIterator<Item = Card>) -> Option<Led> {
        cards
            .into_iter()
            .find(|&c| c != Card::FOOL)
            .map(|c| match c.class() {
                CardClass::Suited(s, _) => Led::Suit(s),
                _ => Led::Trumps,
            })
    }

    fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<engine::Fault> {
        if card == Card::FOOL {
            return None;
        }
        let led = led(trick.plays().iter().map(|p| p.card))?;
        let trumps = hand.iter().any(is_trump);
        let follows = match led {
            Led::Suit(s) if !hand.of_suit(s).is_empty() => card.suit() == Some(s),
            _ => !trumps || is_trump(card),
        };
        (!follows).then(|| engine::Fault::new("revoke", "test tarot", format!("{card} on {led:?}")))
    }

    /// The card's strength in a trick whose cards follow `led`; the Fool and discards have none.
    pub fn strength(led: Option<Led>, card: Card) -> Option<u16> {
        match card.class() {
            CardClass::TarotTrump(n) => Some(0x200 | n as u16),
            CardClass::Suited(s, r) if led == Some(Led::Suit(s)) => {
                Some(0x100 | ORDER.strength(r) as u16)
            }
            _ => None,
        }
    }

    impl Rules for Tarot {
        type Verb = Verb;
        type Details = NoDetails;
        type Carried = NoDetails;

        fn info(&self) -> &'static GameInfo {
            self.0
        }

        fn table(&self, _: &Options) -> Table {
            Table::solo(4)
        }

        fn setup(&self, _: &Options) -> deal::Setup {
            deal::Setup {
                pack: packs::tarot78(),
                hand: deal::HandSize::Each(18),
                counted_by: None,
                parts: &[deal::Holds {
                    part: deal::Part::Widow,
                    what: "the six cards left undealt",
                    count: deal::Count::Between(6, 6),
                }],
            }
        }

        fn start(
            &self,
            record: &HandRecord<Verb>,
            _: &Options,
            table: Table,
            before: &MatchState,
        ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
            let pack = packs::tarot78();
            let mut dealt = deal::check_cards(record, table, &pack)?;
            deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
            deal::check_whole_pack(&dealt, &pack)?;
            let declarer = table.left(record.dealer);
            let mut adj = Adjudication::new(self.0.id, record.dealer, before, 18);
            adj.set_camps(table, "declarer", &[declarer], "defenders");
            Ok(Box::new(Hand {
                play: TrickPlay::new(table, dealt.hands, declarer),
                adj,
            }))
        }
    }

    #[derive(Clone)]
    struct Hand {
        play: TrickPlay<CardSet>,
        adj: Adjudication,
    }

    impl HandState<Verb> for Hand {
        fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
            if self.adj.tricks.len() == 18 {
                return Err(RecordError::after_end(index, action, "the hand is over"));
            }
            let table = self.play.table;
            match action.kind {
                Verb::Play(card) => {
                    self.play.play_judged(index, action.seat, card, judge)?;
                    if card == Card::tarot_trump(WORLD).unwrap() {
                        self.adj.reveal_ally("declarer", action.seat, index);
                    }
                }
                Verb::Correct(card) => self.play.correct(index, action.seat, card, judge)?,
            }
            if self.play.is_complete() {
                let led = led(self.play.trick.plays().iter().map(|p| p.card));
                let pos = self.play.trick.winner_by(|c| strength(led, c)).unwrap();
                let winner = self.play.trick.plays()[pos].seat;
                let (trick, established) = self.play.close_trick(winner);
                for e in established {
                    self.adj.irregularities.push(e.irregularity("none".into()));
                }
                self.adj.tally[table.side(winner)].tricks += 1;
                self.adj.tricks.push(TrickReport::new(trick, winner));
            }
            Ok(())
        }

        fn view(&self) -> TableView {
            TableView::new(
                "play",
                self.play.to_play().into_iter().collect(),
                &self.play,
                &self.adj.match_after,
            )
        }

        fn locus(&self) -> Locus {
            Locus::of_play(&self.play, self.play.to_play().is_none())
        }

        fn candidates(&self) -> Vec<Action<Verb>> {
            self.play.candidates(Verb::Play, Verb::Correct)
        }

        fn faulted(&self, index: usize) -> bool {
            self.adj.faulted(index) || self.play.faulted(index)
        }

        fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
            let mut adj = self.adj;
            let table = self.play.table;
            if let Some(e) = error {
                adj.record_error(e);
            } else if adj.tricks.len() < 18 {
                adj.record_error(RecordError::incomplete_hand(
                    self.play.to_play(),
                    "short".into(),
                ));
            } else {
                let camp: u32 = adj.camps[0]
                    .seats
                    .iter()
                    .map(|&s: &Seat| adj.tally[table.side(s)].tricks)
                    .sum();
                let (payers, payees) = if camp >= 9 {
                    ("defenders", "declarer")
                } else {
                    ("declarer", "defenders")
                };
                adj.pay_each_from_each(table, payers, payees, 1, ScoreSource::Contract, "contract");
                adj.settle();
            }
            adj
        }
    }
}

/// Every tarot card, T1..T21 and the Fool last.
fn tarot_cards() -> Vec<Card> {
    packs::tarot78().cards.iter().collect()
}

/// A tarot deal: 18 cards each round the table from N, the last six to the stock; W deals.
fn tarot_record(cards: &[Card]) -> serde_json::Value {
    let names = |cs: &[Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let mut deal = serde_json::Map::new();
    for (i, seat) in ["N", "E", "S", "W"].iter().enumerate() {
        let hand: Vec<Card> = cards[..72].iter().skip(i).step_by(4).copied().collect();
        deal.insert(seat.to_string(), json!(names(&hand)));
    }
    json!({"dealer": "W", "deal": deal, "stock": names(&cards[72..])})
}

/// Plays a tarot deal out by the engine's legal actions, picking by `seed`.
fn play_tarot(record: serde_json::Value, seed: u64) -> HandRecord {
    let game = tarot::game();
    let mut record: HandRecord = serde_json::from_value(record).unwrap();
    let mut pick = seed;
    loop {
        let view = engine::legal_actions(&game, &record).expect("a legal position");
        let plays: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb == "play")
            .collect();
        if plays.is_empty() {
            return record;
        }
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        record
            .actions
            .push(plays[(pick >> 33) as usize % plays.len()].clone());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// A tarot hand played out: the highest trump, else the highest card of the suit the first
    /// non-Fool card led, wins each trick (never the Fool); the camps split the table, the ally
    /// known at the action where T21 was played; settlement per opponent adds up to zero, each
    /// seat's score his own.
    #[test]
    fn a_declarer_against_three_with_the_tarot_pack(seed in any::<u64>()) {
        let mut cards = tarot_cards();
        shuffle(&mut cards, seed);
        let record = play_tarot(tarot_record(&cards), seed);
        let a = engine::adjudicate(&tarot::game(), &record).expect("accepted");
        prop_assert!(a.record_error.is_none(), "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), 18);
        for t in &a.tricks {
            let plays = t.plays.plays();
            let trump = plays.iter().filter(|p| tarot::is_trump(p.card)).max_by_key(|p| p.card.to_string()[1..].parse::<u8>().unwrap());
            let led = plays.iter().find(|p| p.card != Card::FOOL).unwrap().card;
            let expected = trump.map(|p| p.seat).unwrap_or_else(|| {
                plays.iter().filter(|p| p.card.suit() == led.suit()).max_by_key(|p| tarot::ORDER.strength(p.card.rank().unwrap())).unwrap().seat
            });
            prop_assert_eq!(t.winner, Some(expected));
            prop_assert!(plays.iter().all(|p| p.card != Card::FOOL || t.winner != Some(p.seat)));
        }
        let world = Card::tarot_trump(tarot::WORLD).unwrap();
        let holder = record.deal.iter().find(|(_, h)| h.contains(&world)).map(|(s, _)| *s);
        let declarer: arbiter::engine::Seat = "N".parse().unwrap();
        prop_assert_eq!(a.camps.len(), 2);
        let (camp, defenders) = (&a.camps[0], &a.camps[1]);
        prop_assert_eq!(camp.seats.len() + defenders.seats.len(), 4);
        prop_assert!(camp.seats.contains(&declarer));
        match holder {
            Some(ally) if ally != declarer => {
                prop_assert_eq!(camp.seats.len(), 2);
                prop_assert!(camp.seats.contains(&ally));
                let at = camp.revealed_at.unwrap();
                prop_assert_eq!(record.actions[at].seat, ally);
                prop_assert_eq!(record.actions[at].kind.of::<Card>("play"), Some(world));
            }
            _ => {
                prop_assert_eq!(camp.seats.len(), 1);
                prop_assert_eq!(camp.revealed_at, None);
            }
        }
        let score = a.hand_score.unwrap();
        let table = Table::solo(4);
        let won: u32 = camp.seats.iter().map(|&s| a.tally[table.side(s)].tricks).sum();
        let sign = if won >= 9 { 1 } else { -1 };
        for seat in table.seats() {
            let (own, others) = if camp.seats.contains(&seat) { (camp, defenders) } else { (defenders, camp) };
            let expected = others.seats.len() as i32 * if std::ptr::eq(own, camp) { sign } else { -sign };
            prop_assert_eq!(score[table.side(seat)], expected, "{}", seat);
        }
        prop_assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), 0);
    }
}

/// Trumps follow as their own suit, and the Fool never wins (a hand-built deal). N holds T5, E holds
/// T7 and KS and no other trump, S holds the Fool and T2, W holds T3. On N's T5 lead E may play only
/// T7 (KS would be a revoke: E holds a trump); S may play the Fool though he holds T2. N T5, E T7,
/// S FOOL, W T3: E's T7 wins. The same trick with E's KS is a revoke, established at its end.
#[test]
fn tarot_trumps_follow_as_their_own_suit_and_the_fool_never_wins() {
    let t = |n: u8| Card::tarot_trump(n).unwrap();
    let c = |s: &str| s.parse::<Card>().unwrap();
    let fixed: [(usize, Vec<Card>); 4] = [
        (0, vec![t(5)]),
        (1, vec![t(7), c("KS")]),
        (2, vec![Card::FOOL, t(2)]),
        (3, vec![t(3)]),
    ];
    let used: Vec<Card> = fixed.iter().flat_map(|(_, cs)| cs.clone()).collect();
    // E gets only suited cards of clubs and diamonds besides; the others share the rest.
    let mut rest: Vec<Card> = tarot_cards()
        .into_iter()
        .filter(|x| !used.contains(x))
        .collect();
    let mut hands: Vec<Vec<Card>> = fixed.iter().map(|(_, cs)| cs.clone()).collect();
    let e_fill: Vec<Card> = rest
        .iter()
        .copied()
        .filter(|x| {
            matches!(
                x.suit(),
                Some(arbiter::cards::Suit::Clubs | arbiter::cards::Suit::Diamonds)
            )
        })
        .take(16)
        .collect();
    rest.retain(|x| !e_fill.contains(x));
    hands[1].extend(e_fill);
    for h in [0, 2, 3] {
        let need = 18 - hands[h].len();
        hands[h].extend(rest.drain(..need));
    }
    let names = |cs: &[Card]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let record = |e_card: &str| -> HandRecord {
        serde_json::from_value(json!({
            "dealer": "W",
            "deal": {"N": names(&hands[0]), "E": names(&hands[1]), "S": names(&hands[2]), "W": names(&hands[3])},
            "stock": names(&rest),
            "actions": [
                {"seat": "N", "play": "T5"}, {"seat": "E", "play": e_card},
                {"seat": "S", "play": "FOOL"}, {"seat": "W", "play": "T3"}
            ]
        }))
        .unwrap()
    };
    let game = tarot::game();
    let mut first = record("T7");
    first.actions.truncate(1);
    let offered: Vec<String> = engine::legal_actions(&game, &first)
        .unwrap()
        .legal
        .iter()
        .map(|a| a.kind.of::<Card>("play").unwrap().to_string())
        .collect();
    assert_eq!(offered, ["T7"]);
    first.actions = record("T7").actions[..2].to_vec();
    let offered: Vec<String> = engine::legal_actions(&game, &first)
        .unwrap()
        .legal
        .iter()
        .filter(|a| a.kind.verb == "play")
        .map(|a| a.kind.of::<Card>("play").unwrap().to_string())
        .collect();
    assert!(offered.contains(&"FOOL".to_string()) && offered.contains(&"T2".to_string()));
    assert!(
        offered.iter().all(|c| c == "FOOL" || c.starts_with('T')),
        "{offered:?}"
    );
    let a = engine::adjudicate(&game, &record("T7")).unwrap();
    assert_eq!(a.tricks[0].winner.unwrap().to_string(), "E");
    assert!(a.irregularities.is_empty());
    let a = engine::adjudicate(&game, &record("KS")).unwrap();
    assert_eq!(a.tricks[0].winner.unwrap().to_string(), "N");
    let revoke = &a.irregularities[0];
    assert_eq!(
        (revoke.code, revoke.seat.to_string(), revoke.action_index),
        ("revoke", "E".into(), Some(1))
    );
}

/// The camp helpers by hand: a declarer alone who makes his contract collects 2 from each of three
/// defenders (+6, −2 each); an ally revealed at action 9 joins him, and the same settlement is then
/// +4 each to the two of them, −4 each to the other two; paid in pairs, 3 is +3 to each of them
/// and −3 to each of the others.
#[test]
fn camps_settle_per_opponent() {
    let table = Table::solo(4);
    let seat = |s: &str| s.parse::<arbiter::engine::Seat>().unwrap();
    let before = MatchState {
        scores: arbiter::engine::PerSide::over(table.sides()),
        ..MatchState::default()
    };
    let mut a = Adjudication::new("test", seat("W"), &before, 0);
    type Pay = fn(&mut Adjudication, Table, &str, &str, i32, ScoreSource, &'static str);
    // The defenders pay the declarer camp `points` by `pay`: each seat's total, then afresh.
    let settle = |a: &mut Adjudication, pay: Pay, points: i32| {
        pay(
            a,
            table,
            "defenders",
            "declarer",
            points,
            ScoreSource::Contract,
            "contract",
        );
        let total = serde_json::to_value(a.total()).unwrap();
        a.score_items.clear();
        total
    };
    a.set_camps(table, "declarer", &[seat("N")], "defenders");
    assert_eq!(a.camp_of(seat("S")), Some("defenders"));
    assert_eq!(
        settle(&mut a, Adjudication::pay_each_from_each, 2),
        json!({"N": 6, "E": -2, "S": -2, "W": -2})
    );
    a.reveal_ally("declarer", seat("S"), 9);
    assert_eq!(a.camps[0].seats, [seat("N"), seat("S")]);
    assert_eq!(a.camps[0].revealed_at, Some(9));
    assert_eq!(a.camps[1].seats, [seat("E"), seat("W")]);
    assert_eq!(
        settle(&mut a, Adjudication::pay_each_from_each, 2),
        json!({"N": 4, "E": -4, "S": 4, "W": -4})
    );
    // The pair settlement: each declarer paid 3 by one opponent (an odd amount, whole each).
    assert_eq!(
        settle(&mut a, Adjudication::pay_in_pairs, 3),
        json!({"N": 3, "E": -3, "S": 3, "W": -3})
    );
    // A declarer who called his own card stays alone.
    a.reveal_ally("declarer", seat("N"), 12);
    assert_eq!(a.camps[0].revealed_at, Some(9));
}

// ---- a hand played in turns -----------------------------------------------------------------

/// A climbing hand at three seats, no tricks: eldest plays any card; each next seat plays a card
/// of higher rank (A high, any suit) or passes; when both others pass, the last to play starts
/// again with any card. The first seat out of cards wins the cards the others still hold, and each
/// of them loses his. Plays, passes and going out are events.
mod climb {
    use super::*;
    use arbiter::cards::CardSet;
    use arbiter::engine::{Event, Seat};
    use arbiter::record::Yes;

    arbiter::verbs! {
        /// The climbing game's verbs.
        pub(crate) enum Verb in "Climb" {
            Play(Card) = "play": "A card, higher than the last one unless the seat starts.",
            Pass(Yes) = "pass": "No card this turn.",
        }
    }

    pub(crate) struct Climb(pub &'static GameInfo, pub usize);

    pub const TABLE: Table = Table::solo(3);

    pub fn game(cards: usize) -> Climb {
        Climb(info("test-climb", TABLE, Verb::VERBS), cards)
    }

    impl Rules for Climb {
        type Verb = Verb;
        type Details = NoDetails;
        type Carried = NoDetails;

        fn info(&self) -> &'static GameInfo {
            self.0
        }

        fn table(&self, _: &Options) -> Table {
            TABLE
        }

        fn setup(&self, _: &Options) -> deal::Setup {
            deal::Setup {
                pack: packs::standard52(),
                hand: deal::HandSize::Each(self.1),
                counted_by: None,
                parts: &[],
            }
        }

        fn start(
            &self,
            record: &HandRecord<Verb>,
            _: &Options,
            _: Table,
            before: &MatchState,
        ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
            let dealt = deal::check_cards(record, TABLE, &packs::standard52())?;
            Ok(Box::new(Hand {
                hands: dealt.hands,
                to_act: TABLE.left(record.dealer),
                top: None,
                passes: 0,
                out: None,
                adj: Adjudication::new(self.0.id, record.dealer, before, 0),
            }))
        }
    }

    #[derive(Clone)]
    struct Hand {
        hands: [CardSet; 7],
        to_act: Seat,
        /// The card to beat.
        top: Option<Card>,
        passes: usize,
        /// The seat that went out.
        out: Option<Seat>,
        adj: Adjudication,
    }

    fn rank(card: Card) -> u8 {
        RankOrder::ACE_HIGH.strength(card.rank_unchecked())
    }

    impl Hand {
        fn event(&mut self, code: &'static str, index: usize, seat: Seat, cards: Vec<Card>) {
            self.adj.events.push(Event {
                code,
                action_index: Some(index),
                trick: None,
                seat: Some(seat),
                side: None,
                cards,
                details: Default::default(),
                detail: format!("{seat} {code}"),
            });
        }
    }

    impl HandState<Verb> for Hand {
        fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
            let seat = action.seat;
            if self.out.is_some() {
                return Err(RecordError::after_end(index, action, "a seat went out"));
            }
            if seat != self.to_act {
                let due = format!("{} is to act", self.to_act);
                return Err(RecordError::at("out_of_turn", index, seat, "seat", due));
            }
            match action.kind {
                Verb::Play(card) => {
                    if !self.hands[seat.pos()].contains(card) {
                        let e = format!("{seat} does not hold {card}");
                        return Err(RecordError::on("card_not_held", index, action, e));
                    }
                    if self.top.is_some_and(|top| rank(card) <= rank(top)) {
                        let e = format!("{card} does not beat {}", self.top.unwrap());
                        return Err(RecordError::on("not_higher", index, action, e));
                    }
                    self.hands[seat.pos()].remove(card);
                    self.top = Some(card);
                    self.passes = 0;
                    self.event("played", index, seat, vec![card]);
                    if self.hands[seat.pos()].is_empty() {
                        self.out = Some(seat);
                        self.event("went_out", index, seat, Vec::new());
                    }
                }
                Verb::Pass(Yes) => {
                    if self.top.is_none() {
                        let e = "the seat starting must play a card".to_string();
                        return Err(RecordError::on("cannot_pass", index, action, e));
                    }
                    self.passes += 1;
                    self.event("passed", index, seat, Vec::new());
                    // Both others passed: the last to play starts again (he is next).
                    if self.passes == TABLE.players() - 1 {
                        self.top = None;
                        self.passes = 0;
                    }
                }
            }
            self.to_act = TABLE.left(seat);
            Ok(())
        }

        fn view(&self) -> TableView {
            let hands = TABLE.seats().map(|s| (s, self.hands[s.pos()].to_vec()));
            let to_act = if self.out.is_some() {
                Vec::new()
            } else {
                vec![self.to_act]
            };
            TableView::turns("play", to_act, hands, &self.adj.match_after)
        }

        fn locus(&self) -> Locus {
            Locus::of_turns(self.out.is_some())
        }

        fn candidates(&self) -> Vec<Action<Verb>> {
            if self.out.is_some() {
                return Vec::new();
            }
            let seat = self.to_act;
            self.hands[seat.pos()]
                .iter()
                .map(Verb::Play)
                .chain([Verb::Pass(Yes)])
                .map(|kind| Action { seat, kind })
                .collect()
        }

        fn faulted(&self, index: usize) -> bool {
            self.adj.faulted(index)
        }

        fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
            let mut adj = self.adj;
            match (error, self.out) {
                (Some(e), _) => adj.record_error(e),
                (None, None) => adj.record_error(RecordError::incomplete_hand(
                    Some(self.to_act),
                    "nobody went out".into(),
                )),
                (None, Some(winner)) => {
                    let left = |s: Seat| self.hands[s.pos()].len() as i32;
                    let won: i32 = TABLE.seats().map(left).sum();
                    adj.score(
                        TABLE.side(winner),
                        won,
                        ScoreSource::Tricks,
                        "cards_left",
                        None,
                    );
                    for s in TABLE.seats().filter(|&s| s != winner) {
                        adj.score(
                            TABLE.side(s),
                            -left(s),
                            ScoreSource::Tricks,
                            "cards_left",
                            None,
                        );
                    }
                    adj.hand_winner = Some(TABLE.side(winner));
                    adj.settle();
                }
            }
            adj
        }
    }
}

/// A climbing hand by hand, dealer P3 so P1 starts. P1 3S 9H QD, P2 5D KC 2H, P3 4C 7S AS.
/// P1 3S, P2 5D, P3 7S, P1 9H, P2 KC, P3 AS; nothing beats the ace: P1 and P2 pass, P3 starts
/// again with 4C and is out of cards. P1 and P2 hold one card each (QD, 2H): P3 +2, P1 −1, P2 −1.
/// Nine actions, seven cards played, two passes, one seat out: ten events, no trick.
#[test]
fn a_hand_played_in_turns() {
    let game = climb::game(3);
    let v = json!({
        "dealer": "P3",
        "deal": {"P1": ["3S", "9H", "QD"], "P2": ["5D", "KC", "2H"], "P3": ["4C", "7S", "AS"]},
        "actions": [
            {"seat": "P1", "play": "3S"}, {"seat": "P2", "play": "5D"}, {"seat": "P3", "play": "7S"},
            {"seat": "P1", "play": "9H"}, {"seat": "P2", "play": "KC"}, {"seat": "P3", "play": "AS"},
            {"seat": "P1", "pass": true}, {"seat": "P2", "pass": true}, {"seat": "P3", "play": "4C"}
        ]
    });
    let record: HandRecord = serde_json::from_value(v.clone()).unwrap();
    let a = engine::adjudicate(&game, &record).unwrap();
    assert!(a.record_error.is_none(), "{:?}", a.record_error);
    assert!(a.tricks.is_empty());
    let codes: Vec<&str> = a.events.iter().map(|e| e.code).collect();
    assert_eq!(
        codes,
        [
            "played", "played", "played", "played", "played", "played", "passed", "passed",
            "played", "went_out"
        ]
    );
    assert_eq!(
        serde_json::to_value(a.hand_score.unwrap()).unwrap(),
        json!({"P1": -1, "P2": -1, "P3": 2})
    );
    assert_eq!(a.hand_winner.unwrap().to_string(), "P3");

    // Before P2's pass: P2 may only pass (nothing beats the ace), and P1's view holds no trick.
    let mut partial = record.clone();
    partial.actions.truncate(7);
    let view = engine::legal_actions(&game, &partial).unwrap();
    assert_eq!(view.trick_number, None);
    assert_eq!(view.to_act.len(), 1);
    let legal: Vec<&str> = view.legal.iter().map(|a| a.kind.verb.as_str()).collect();
    assert_eq!(legal, ["pass"]);
    // After the two passes P3 starts again: every card he holds, no pass.
    partial.actions = record.actions[..8].to_vec();
    let view = engine::legal_actions(&game, &partial).unwrap();
    assert_eq!(view.legal.len(), 1);
    assert_eq!(
        view.legal[0].kind.of::<Card>("play").unwrap().to_string(),
        "4C"
    );

    // A card that does not beat the last one, a pass by the seat starting, a seat out of turn.
    for (i, action, code) in [
        (1, json!({"seat": "P2", "play": "2H"}), "not_higher"),
        (0, json!({"seat": "P1", "pass": true}), "cannot_pass"),
        (0, json!({"seat": "P2", "play": "5D"}), "out_of_turn"),
    ] {
        let mut bad = v.clone();
        bad["actions"][i] = action;
        let bad: HandRecord = serde_json::from_value(bad).unwrap();
        let e = engine::adjudicate(&game, &bad)
            .unwrap()
            .record_error
            .unwrap();
        assert_eq!((e.code, e.action_index), (code, Some(i)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Random legal turns end with one seat out of cards, reported as events only: one `played`
    /// per card gone from the hands, the scores the cards left, adding up to zero.
    #[test]
    fn turns_played_at_random_end_with_a_seat_out(seed in any::<u64>()) {
        let game = climb::game(5);
        let mut cards: Vec<Card> = packs::standard52().cards.iter().collect();
        shuffle(&mut cards, seed);
        let deal: serde_json::Map<String, serde_json::Value> = (0..3)
            .map(|i| (format!("P{}", i + 1), json!(cards[i * 5..i * 5 + 5].iter().map(|c| c.to_string()).collect::<Vec<_>>())))
            .collect();
        let mut record: HandRecord = serde_json::from_value(json!({"dealer": "P1", "deal": deal})).unwrap();
        let mut pick = seed;
        for _ in 0..200 {
            let view = engine::legal_actions(&game, &record).expect("a legal position");
            if view.legal.is_empty() {
                break;
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            record.actions.push(view.legal[(pick >> 33) as usize % view.legal.len()].clone());
        }
        let a = engine::adjudicate(&game, &record).expect("accepted");
        prop_assert!(a.record_error.is_none(), "{:?}", a.record_error);
        prop_assert!(a.tricks.is_empty());
        let played = a.events.iter().filter(|e| e.code == "played").count();
        let plays = record.actions.iter().filter(|x| x.kind.verb == "play").count();
        prop_assert_eq!(played, plays);
        prop_assert_eq!(a.events.iter().filter(|e| e.code == "went_out").count(), 1);
        let score = a.hand_score.unwrap();
        prop_assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), 0);
        prop_assert_eq!(score[a.hand_winner.unwrap()], (15 - plays) as i32);
    }
}
