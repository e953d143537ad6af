//! Shapes of the games to come that the eleven games do not use, carried by the engine itself
//! (issue 10): packs with copies dealt and replayed as multisets (Calypso's 208 cards at four seats,
//! Hand and Foot's 270 with ten jokers at six), fixed teams at six seats (three pairs, two teams of
//! three), a 78-card tarot pack with its trumps and the Fool played by a declarer against three
//! (camps, an ally revealed by a called card), a table that shrinks between hands (Knockout Whist's
//! shape) and a hand played in turns, not tricks. Every game here is a test's own, not a game of
//! the service. The plain one: tricks, follow suit, the highest card of the led suit wins, jokers
//! above everything (the first joker of a trick wins), one point per trick.

use arbiter::cards::{Card, CardCounts, Holding, Pack, Rank, packs};
use arbiter::engine::{
    self, Adjudication, FieldError, GameInfo, HandState, MatchState, NoDetails, Options, RankOrder,
    RecordError, Rules, ScoreSource, Table, TableView, Tables, Trick, TrickPlay, TrickReport, deal,
    must_follow_suit, trump_or_led,
};
use arbiter::record::{Action, HandRecord, Verbs};
use proptest::prelude::*;
use serde_json::json;

arbiter::verbs! {
    /// The plain game's verbs.
    #[derive(Copy)]
    enum Verb in "Plain" {
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

    fn start(
        &self,
        record: &HandRecord<Verb>,
        _: &Options,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let table = self.table;
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
        let mut view = TableView::new(
            "play",
            self.play.to_play().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.add_plays(&self.play, judge(self.play.table));
        view
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
