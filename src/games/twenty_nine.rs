//! Twenty-Nine (`docs/rules/twenty-nine.md`): four players in partnerships, a 32-card pack ranked
//! J 9 A T K Q 8 7; four cards each, an auction 15–28 for the right to name a concealed trump, four
//! more cards each; the trump is revealed the first time a player in turn cannot follow suit; a royal
//! pair (K+Q of trumps) shown after the reveal moves the contract by 4; the declarers gain 1 game
//! point for a made contract and lose 1 otherwise; game at +6, lost at −6.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::engine::auction::{Auction, Conduct, End, NoBid, Number, Numbers, Rounds};
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Contract, Decided, Decides, Effect, Ending, Event, Fault, FieldError, GameInfo,
    HandState, IgnoredAction, Irregularity, Locus, MatchState, NoDetails, OptionKind, OptionSpec,
    Options, Outcome, PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat, Side, Table,
    TableView, Trick, TrickPlay, TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Yes};

pub struct TwentyNine;

crate::verbs! {
    /// What a record of Twenty-Nine can say.
    #[derive(Copy)]
    pub enum Verb in "Twenty-Nine" {
        Bid(Number) = "bid": "A bid: the points (15 to 28) the bidder's side undertakes to take.",
        Pass(Yes) = "pass": "A pass in the auction (value `true`).",
        Trump(Suit) = "trump": "The high bidder's secret trump suit (revealed the first time a player cannot follow suit).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        Royals(Yes) = "royals": "The seat shows the King and Queen of trumps after his side won a trick (value `true`).",
    }
}

crate::auction_calls!(Verb, Number);

static INFO: GameInfo = GameInfo {
    id: "twenty-nine",
    name: "Twenty-Nine",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "32-card pack (A K Q J T 9 8 7)",
    game_target: GAME,
    options: &[OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: an established revoke loses the hand for the offenders' side — the \
                      declarers score −1 if they revoked, +1 if a defender did; a declarers' revoke \
                      decides when both sides revoke (the rulings' default, the text being silent); \
                      `none`: revokes are reported only.",
        rule: "twenty-nine.md §5, TN-b",
    }],
    rules: "docs/rules/twenty-nine.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "invalid_royals",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["forced_bid", "trump_revealed", "royals_shown"],
    score_codes: &[CONTRACT_MADE, CONTRACT_FAILED],
    titles: crate::engine::Titles(&[
        ("invalid_royals", "Royals shown that do not qualify"),
        ("royals_shown", "Royals shown (king and queen of trumps)"),
    ]),
};

/// Score item codes (§4): the declarers' game point won or lost on the cards.
const CONTRACT_MADE: &str = "contract_made";
const CONTRACT_FAILED: &str = "contract_failed";

/// §4: a side reaching +6 wins the game; a side reaching −6 loses it.
const GAME: i32 = 6;
/// §1: 8 cards each, dealt 4 before the auction and 4 after.
const DEALT: usize = 8;
const FIRST_ROUND: usize = 4;
const TRICKS: usize = 8;
/// §3: the bids, and the bounds of the contract after royals (TN-e).
const MIN_BID: u8 = 15;
const MAX_BID: u8 = 28;
const BIDS: Numbers = Numbers {
    low: MIN_BID,
    high: MAX_BID,
};
/// §3, TN-1, TN-d: from the dealer's left, clockwise, skipping seats that have passed; the first
/// three passing, the dealer is compelled to bid 15.
const AUCTION: Conduct<Number> = Conduct {
    rounds: Rounds::PassesFinal,
    equal: None,
    no_bid: NoBid::LastCompelled(Number(MIN_BID)),
    rule: "twenty-nine.md §3, TN-d",
};
/// §3: royals move the contract by 4.
const ROYALS: u8 = 4;

/// §1: J 9 A T K Q 8 7 in every suit.
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Jack,
    Rank::Nine,
    Rank::Ace,
    Rank::Ten,
    Rank::King,
    Rank::Queen,
    Rank::Eight,
    Rank::Seven,
]);

/// §1: J 3, 9 2, A 1, T 1, the rest nothing (28 in the pack).
fn card_points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Jack => 3,
        Rank::Nine => 2,
        Rank::Ace | Rank::Ten => 1,
        _ => 0,
    }
}

/// §3: follow suit if able; otherwise any card (never an obligation to trump).
fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    must_follow_suit(Table::FOUR, "twenty-nine.md §3", trick, hand, card)
}

fn suit_name(suit: Suit) -> &'static str {
    ["spades", "hearts", "diamonds", "clubs"][suit as usize]
}

/// §4 trick winner. The card at position `pos` counts as a trump only if it was played at or after
/// the reveal (`trumps_from`: the first position whose trump counts; TN-2, TN-a). A led-suit card
/// always ranks as the led suit, so a trump lead is decided by rank whether or not it is revealed.
fn winner(trick: &Trick, trump: Suit, trumps_from: Option<usize>) -> usize {
    let led = trick.led().expect("a complete trick").suit_unchecked();
    let plays = trick.plays();
    trick
        .winner_by(|card| {
            let pos = plays.iter().position(|p| p.card == card)?;
            let rank = ORDER.strength(card.rank_unchecked()) as u16;
            let suit = card.suit_unchecked();
            if suit == led {
                Some(0x100 | rank)
            } else if suit == trump && trumps_from.is_some_and(|from| pos >= from) {
                Some(0x200 | rank)
            } else {
                None
            }
        })
        .expect("the led card always ranks")
}

/// §4: the side whose total decides the game, and the winner: a side reaching +6 wins, a side
/// reaching −6 loses (the other side wins).
fn game_decided(scores: &PerSide<i32>) -> Option<(Side, Side)> {
    let at = scores
        .sides()
        .find(|&s| scores[s] >= GAME || scores[s] <= -GAME)?;
    Some((at, if scores[at] >= GAME { at } else { at.other() }))
}

impl Rules for TwentyNine {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// §4: a side at +6 has won, and a side at −6 has lost: the other side has won.
    fn already_won(&self, scores: &PerSide<i32>, _: &Options) -> Option<Decided> {
        let (at, winner) = game_decided(scores)?;
        let why = if winner == at {
            format!("{at} has {} and has won at {GAME}", scores[at])
        } else {
            format!("{at} has {} and has lost at -{GAME}", scores[at])
        };
        Some(Decided {
            winner: Some(winner),
            at,
            why,
        })
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::piquet32(),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::piquet32();
        let dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        // §2.1: the first four cards listed for each seat are the round dealt before the auction.
        let mut first_round = [CardSet::EMPTY; 4];
        for (seat, cards) in &record.deal {
            let at = Table::FOUR.resolve(*seat).expect("checked by check_cards");
            first_round[at.pos()] = cards[..FIRST_ROUND].iter().copied().collect();
        }
        let dealer = record.dealer;
        let eldest = Table::FOUR.left(dealer);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.counts_card_points(Side::BOTH);
        Ok(Box::new(Hand {
            first_round,
            play: TrickPlay::new(Table::FOUR, dealt.hands, eldest), // §1: the dealer's left leads
            phase: Phase::Auction,
            auction: Auction::new(Table::FOUR, eldest, BIDS, AUCTION),
            trump: Suit::Spades,
            trumps_from: None,
            royals_shown: false,
            revokes: Vec::new(),
            penalty: options.choice("revoke_penalty") == "default",
            decided: None,
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Auction,
    /// §2.3: the high bidder names the concealed trump. The auction still judges the dealer's
    /// compulsory 15, which the record may show once (TN-d).
    Trump,
    Play,
    /// Eight tricks played.
    Over,
}

#[derive(Clone)]
struct Hand {
    first_round: [CardSet; 4],
    auction: Auction<Numbers>,
    play: TrickPlay,
    phase: Phase,
    /// The concealed trump (meaningful from the `trump` action on).
    trump: Suit,
    /// The reveal: the trick it happened in and the first position in it whose trump counts.
    trumps_from: Option<(u8, usize)>,
    royals_shown: bool,
    /// Established revokes: the offending seat and the irregularity's index.
    revokes: Vec<(Seat, usize)>,
    penalty: bool,
    /// The declarers' revoke (its irregularity's index) that decided the hand when established
    /// (TN-b, README C9): the hand is over and later actions are ignored.
    decided: Option<usize>,
    adj: Adjudication,
}

impl Hand {
    /// §2.1: until the auction and the trump are done, each seat holds only its first round.
    fn first_round_hands(&self) -> impl Iterator<Item = (Seat, Vec<Card>)> + '_ {
        Table::FOUR
            .seats()
            .map(|s| (s, self.first_round[s.pos()].iter().collect()))
    }

    fn contract(&self) -> &Contract {
        self.adj
            .contract
            .as_ref()
            .expect("set when the auction ends")
    }

    fn declarers(&self) -> Side {
        self.contract().side
    }

    fn revealed(&self) -> bool {
        self.trumps_from.is_some()
    }

    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let (declarer, bid) = match self.auction.apply(index, action)? {
            // Nobody bidding never passes a hand out here: the dealer is compelled (TN-d).
            None | Some(End::Passed) => return Ok(()),
            Some(End::Won { declarer, bid }) => (declarer, bid),
            Some(End::Compelled { declarer, bid }) => {
                let detail = format!(
                    "the first three players passed: {declarer}, the dealer, is compelled to bid {bid} and the auction ends (§3, TN-d)"
                );
                let event = Event::new("forced_bid", index, declarer, Vec::new(), detail);
                self.adj.events.push(event);
                (declarer, bid)
            }
        };
        let mut contract = Contract::new(declarer, Table::FOUR.side(declarer));
        contract.bid = Some(bid.0.into());
        contract.target = Some(bid.0 as i32);
        self.adj.contract = Some(contract);
        self.phase = Phase::Trump;
        Ok(())
    }

    fn choose_trump(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let declarer = self.contract().declarer;
        match action.kind {
            Verb::Trump(suit) if seat == declarer => {
                self.trump = suit;
                self.adj.trump = Some(suit);
                self.phase = Phase::Play;
                Ok(())
            }
            // TN-d: the record may show the dealer's compulsory 15, once.
            Verb::Bid(_) | Verb::Pass(_) if self.auction.compelled() == Some(seat) => {
                self.auction.apply(index, action).map(drop)
            }
            _ => Err(RecordError::out_of_phase(
                index,
                action,
                declarer,
                &format!(
                    "the auction is over: {declarer}, the high bidder, names the concealed trump next (§2.3)"
                ),
            )),
        }
    }

    fn play_card(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        let trick = self.play.trick;
        let void = trick.led().is_some_and(|led| {
            self.play
                .hand(seat)
                .of_suit(led.suit_unchecked())
                .is_empty()
        });
        let fault = judge(&trick, self.play.hand(seat), card);
        self.play.play(index, seat, card, fault)?;
        if void && !self.revealed() {
            // TN-2: revealed the moment he is in turn without the led suit, before his card; his
            // card and every later card of this trick count.
            let pos = trick.len();
            self.trumps_from = Some((trick.number, pos));
            let led = trick.led().expect("checked above").suit_unchecked();
            let declarer = self.contract().declarer;
            self.adj.events.push(Event::new("trump_revealed", index, seat, Vec::new(), format!(
                    "{seat} held no {} in trick {}: {declarer} turned up the concealed trump, {}, before {seat} played (§3, TN-2)",
                    suit_name(led),
                    trick.number,
                    suit_name(self.trump)
                )).in_trick(trick.number));
        }
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    fn close_trick(&mut self) {
        let number = self.play.trick.number;
        let from = match self.trumps_from {
            Some((t, _)) if t < number => Some(0),
            Some((t, pos)) if t == number => Some(pos),
            _ => None,
        };
        let w = winner(&self.play.trick, self.trump, from);
        let winner = self.play.trick.plays()[w].seat;
        let (trick, established) = self.play.close_trick(winner);
        let declarers = self.declarers();
        for e in established {
            // TN-b: a declarers' revoke decides whatever else happens, so it decides the hand as
            // soon as it is established (README C9); the first one of this trick if several.
            if self.penalty && self.decided.is_none() && Table::FOUR.side(e.seat) == declarers {
                self.decided = Some(self.adj.irregularities.len());
            }
            self.revokes.push((e.seat, self.adj.irregularities.len()));
            self.adj.irregularities.push(Irregularity {
                code: e.fault.code,
                action_index: Some(e.action_index),
                trick: Some(e.trick),
                seat: e.seat,
                card: Some(e.card),
                rule: e.fault.rule,
                explanation: e.fault.explanation,
                consequence: String::new(), // known when the hand ends (TN-b)
                effect: Effect::default(),
            });
        }
        let points: i32 = trick.plays().iter().map(|p| card_points(p.card)).sum();
        let tally = &mut self.adj.tally[Table::FOUR.side(winner)];
        tally.tricks += 1;
        *tally.points.get_or_insert(0) += points;
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
        if self.adj.tricks.len() == TRICKS || self.decided.is_some() {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// The trump K and Q, if `seat` holds both.
    fn royal_pair(&self, seat: Seat) -> Option<[Card; 2]> {
        let pair = [
            Card::new(Rank::King, self.trump),
            Card::new(Rank::Queen, self.trump),
        ];
        let hand = self.play.hand(seat);
        pair.iter().all(|&c| hand.contains(c)).then_some(pair)
    }

    /// §3, TN-3, TN-c: why `seat` may not show royals now, or `None` when he may.
    fn royals_refusal(&self, seat: Seat) -> Option<String> {
        if !matches!(self.phase, Phase::Play) {
            return Some("royals are shown only during the play, after a trick".into());
        }
        if self.royals_shown {
            return Some("the royals were already shown this hand (one pair exists)".into());
        }
        if !self.revealed() {
            return Some("the trump has not been revealed yet".into());
        }
        let Some(last) = self.adj.tricks.last() else {
            return Some("no trick has been won yet".into());
        };
        if !self.play.trick.is_empty() {
            return Some(format!(
                "royals are shown right after a trick, not during trick {}",
                self.play.trick.number
            ));
        }
        let won_by = last.winner.expect("every Twenty-Nine trick has a winner");
        if Table::FOUR.side(won_by) != Table::FOUR.side(seat) {
            return Some(format!(
                "trick {} was won by {won_by}, not by {seat}'s side",
                last.number
            ));
        }
        if self.royal_pair(seat).is_none() {
            return Some(format!(
                "{seat} does not hold both the K and the Q of trumps ({})",
                suit_name(self.trump)
            ));
        }
        None
    }

    /// The seats that may act: the bidder due, the declarer choosing trump, the player to play and
    /// every seat that may still declare royals; none once the hand is over.
    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due().into_iter().collect(),
            Phase::Trump => vec![self.contract().declarer],
            Phase::Play => {
                let mut to_act: Vec<Seat> = self.play.to_play().into_iter().collect();
                for seat in self.royals_holders() {
                    if !to_act.contains(&seat) {
                        to_act.push(seat);
                    }
                }
                to_act
            }
            Phase::Over => vec![],
        }
    }

    /// Seats that may show royals now (at most one: one pair exists).
    fn royals_holders(&self) -> impl Iterator<Item = Seat> + '_ {
        Table::FOUR
            .seats()
            .filter(|&s| self.royals_refusal(s).is_none())
    }

    fn show_royals(&mut self, index: usize, seat: Seat) -> Result<(), RecordError> {
        if let Some(why) = self.royals_refusal(seat) {
            return Err(RecordError::at(
                "invalid_royals",
                index,
                seat,
                "royals",
                format!("{seat} may not show royals: {why} (§3, TN-3, TN-c)"),
            ));
        }
        self.royals_shown = true;
        let declarers = self.declarers();
        let trick = self.adj.tricks.last().map(|t| t.number);
        let contract = self
            .adj
            .contract
            .as_mut()
            .expect("set when the auction ends");
        let bid = contract
            .bid
            .as_ref()
            .and_then(|b| b.as_u64())
            .map_or(MIN_BID, |n| n as u8);
        // TN-e: clamped once to 15..28.
        let target = if Table::FOUR.side(seat) == declarers {
            bid.saturating_sub(ROYALS).max(MIN_BID)
        } else {
            (bid + ROYALS).min(MAX_BID)
        };
        contract.target = Some(target as i32);
        let who = if Table::FOUR.side(seat) == declarers {
            "a declarer"
        } else {
            "a defender"
        };
        self.adj.events.push(
            Event::new(
                "royals_shown",
                index,
                seat,
                self.royal_pair(seat).expect("checked above").to_vec(),
                format!(
                    "{seat}, {who}, showed the K and Q of trumps: the contract moves from {bid} to {target} (§3, TN-e)"
                ),
            )
            .in_trick(trick),
        );
        Ok(())
    }

    /// §5 DEFAULT and TN-b: which established revoke decides the hand, if any: a declarers' one
    /// (it ended the hand), else, the hand played out, the defenders' first.
    fn deciding_revoke(&self) -> Option<(Seat, usize)> {
        if !self.penalty {
            return None;
        }
        match self.decided {
            Some(i) => self.revokes.iter().find(|r| r.1 == i),
            None => self.revokes.first(),
        }
        .copied()
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match (self.phase, action.kind) {
            (Phase::Auction, _) => self.call(index, action),
            (Phase::Trump, _) => self.choose_trump(index, action),
            (Phase::Play, Verb::Play(card)) => self.play_card(index, seat, card),
            (Phase::Play, Verb::Correct(card)) => {
                // TN-e: a correction never undoes a reveal; `trumps_from` stays as it is.
                self.play.correct(index, seat, card, judge)
            }
            (Phase::Play, Verb::Royals(Yes)) => self.show_royals(index, seat),
            (Phase::Play, _) => Err(RecordError::out_of_phase(
                index,
                action,
                self.play.to_play().unwrap_or(seat),
                &format!(
                    "the play is under way: a card is due to trick {}",
                    self.play.trick.number
                ),
            )),
            (Phase::Over, _) => match self.decided {
                // README C6, C9: the hand was decided by a revoke; later actions are ignored.
                Some(i) => {
                    let at = self.adj.irregularities[i].action_index.unwrap_or_default();
                    self.adj.ignored_actions.push(IgnoredAction {
                        action_index: index,
                        reason: format!(
                            "the declarers' revoke at action {at} decided the hand: later actions are ignored (twenty-nine.md §5, TN-b; README C6, C9)"
                        ).into(),
                    });
                    Ok(())
                }
                None => Err(RecordError::after_end(
                    index,
                    action,
                    "the hand ended with the eighth trick",
                )),
            },
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Auction => "auction",
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        let mut view = TableView::new(phase, self.to_act(), &self.play, &self.adj.match_after);
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.trick_number = self.locus().trick_number;
        match self.phase {
            Phase::Auction | Phase::Trump => {
                // Before the auction ends each player holds only the first four cards.
                view.set_hands(self.first_round_hands());
            }
            Phase::Play => {
                // The trump is public once revealed, and known to the high bidder; the seat in
                // turn without the led suit sees it turned up before he plays (TN-2).
                let next_void = self.play.to_play().is_some_and(|s| {
                    self.play.trick.led().is_some_and(|led| {
                        self.play.hand(s).of_suit(led.suit_unchecked()).is_empty()
                    })
                });
                let viewer_declares = view.to_act.first() == Some(&self.contract().declarer);
                if self.revealed() || next_void || viewer_declares {
                    view.trump = Some(self.trump);
                }
            }
            Phase::Over => {
                view.trump = self.revealed().then_some(self.trump);
            }
        }
        view
    }

    /// No trick is under way before the trump is chosen: the table shows no trick number.
    fn locus(&self) -> Locus {
        let playing = matches!(self.phase, Phase::Play);
        Locus::of_play_once_begun(&self.play, self.to_act().is_empty(), playing)
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match self.phase {
            Phase::Auction => self.auction.candidates(),
            Phase::Trump => {
                let declarer = self.contract().declarer;
                // TN-d: the record may show the dealer's compulsory 15, once.
                let mut out = self.auction.candidates();
                out.extend(Suit::ALL.map(|suit| Action {
                    seat: declarer,
                    kind: Verb::Trump(suit),
                }));
                out
            }
            Phase::Play => {
                let mut out = self.play.candidates(Verb::Play, Verb::Correct);
                out.extend(Table::FOUR.seats().map(|seat| Action {
                    seat,
                    kind: Verb::Royals(Yes),
                }));
                out
            }
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = if matches!(self.phase, Phase::Over) {
            Ending::Over
        } else {
            let (due, detail) = match self.phase {
                Phase::Auction => {
                    let turn = self.auction.due();
                    (
                        turn,
                        format!(
                            "the record stops in the auction, with {} to call",
                            turn.expect("due while the auction is open")
                        ),
                    )
                }
                Phase::Trump => {
                    let declarer = self.contract().declarer;
                    (
                        Some(declarer),
                        format!("the record stops before {declarer} names the trump"),
                    )
                }
                // README C9: a defenders' revoke does not decide the hand before its end, a
                // declarers' one still able to (TN-b).
                _ => (
                    self.play.to_play(),
                    format!(
                        "the record stops in trick {} of {TRICKS}",
                        self.play.trick.number
                    ),
                ),
            };
            Ending::Open { due, detail }
        };
        if self.adj.unscored(error, ending) {
            return self.adj;
        }
        let declarers = self.declarers();
        let deciding = self.deciding_revoke();
        for &(seat, at) in &self.revokes {
            let offenders = Table::FOUR.side(seat);
            let role = if offenders == declarers {
                "declarers"
            } else {
                "defenders"
            };
            self.adj.irregularities[at].consequence = match deciding {
                None => "none: the revoke_penalty option is 'none'".to_string(),
                Some((_, decides)) if decides == at => format!(
                    "{} ({role}) lose the hand: the declarers score {} (twenty-nine.md §5 DEFAULT, TN-b)",
                    offenders.spoken(),
                    if offenders == declarers { "−1" } else { "+1" }
                ),
                Some((by, decides)) => format!(
                    "no further effect: the revoke by {by} at action {} decides the hand (twenty-nine.md §5 DEFAULT, TN-b)",
                    self.adj.irregularities[decides]
                        .action_index
                        .unwrap_or_default()
                ),
            };
        }
        let target = self.contract().target.unwrap_or(MIN_BID as i32);
        let mut adj = self.adj;
        // §4: the declarers gain or lose one game point; the defenders' score never changes.
        // §5 DEFAULT: a deciding revoke fixes that point whatever the cards: it is the penalty.
        let made = match deciding {
            Some((seat, at)) => {
                let made = Table::FOUR.side(seat) != declarers;
                adj.penalize(at, declarers, if made { 1 } else { -1 });
                adj.irregularities[at].effect.decides = Some(Decides::Hand);
                made
            }
            None => {
                let made = adj.tally[declarers].points.unwrap_or(0) >= target;
                if made {
                    adj.score(declarers, 1, ScoreSource::Contract, CONTRACT_MADE, None);
                } else {
                    adj.score(declarers, -1, ScoreSource::Contract, CONTRACT_FAILED, None);
                }
                made
            }
        };
        if let Some(c) = &mut adj.contract {
            c.made = Some(made);
        }
        // §5's words: the side that does not lose the hand wins it.
        adj.hand_winner = Some(if made { declarers } else { declarers.other() });
        adj.outcome = Outcome::Scored;
        adj.settle();
        let m = &mut adj.match_after;
        m.next_dealer = Some(Table::FOUR.left(adj.dealer)); // TN-5, README C8
        if let Some((_, winner)) = game_decided(&m.scores) {
            m.end_game([winner]);
        }
        adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trick(cards: &[&str]) -> Trick {
        let mut t = Trick::new(1, Seat::N);
        for (i, c) in cards.iter().enumerate() {
            t.push(Table::FOUR.seat(i), c.parse().unwrap(), i);
        }
        t
    }

    #[test]
    fn a_trump_counts_only_from_the_reveal_on() {
        // Clubs trump. E revokes 9C before the reveal, W (void) plays AC at it (TN-a).
        let t = trick(&["JH", "9C", "8H", "AC"]);
        assert_eq!(winner(&t, Suit::Clubs, Some(3)), 3);
        assert_eq!(winner(&t, Suit::Clubs, Some(1)), 1, "both count: 9 above A");
        assert_eq!(
            winner(&t, Suit::Clubs, None),
            0,
            "never revealed: the led suit"
        );
    }

    #[test]
    fn trumps_led_rank_by_card_order_around_the_reveal() {
        // Hearts led and trump; E void reveals; S's 7H after the reveal does not beat N's JH.
        let t = trick(&["JH", "7D", "7H", "9H"]);
        assert_eq!(winner(&t, Suit::Hearts, Some(1)), 0);
    }

    #[test]
    fn card_points_total_28() {
        let total: i32 = packs::piquet32().cards.iter().map(card_points).sum();
        assert_eq!(total, 28);
    }
}
