//! Calypso (`docs/rules/calypso.md`): four players in partnerships, N–S against E–W, a 208-card
//! pack (four 52-card packs, identical cards interchangeable). Each player owns a personal trump
//! suit for the whole game. A game is four deals of 13 cards from the same pack, the undealt
//! remainder kept for the next deal; one hand here is one deal. Follow suit if able; the trick
//! goes by the unified rule of §4.1, which depends on who played a card. Won cards build calypsos
//! (one of each rank of a player's own suit) across the four deals (§4.2); after the fourth deal
//! each side scores its calypsos and cards (§4.3), the higher total wins and equal totals draw.
//!
//! One hand is one deal: what the game has built so far (each player's completed calypsos, the
//! calypso in progress and the won-tricks pile) is carried in the match state as `piles`. The
//! match scores are the provisional totals of §4.3 after each deal (CA-c), so a hand's score is
//! what the deal changed in them.

use crate::cards::{Card, CardCounts, CardSet, Holding, Pack, Suit, packs};
use crate::details;
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Ending, Event, Fault, FieldError, GameInfo, HandState, Locus, MatchState,
    OptionKind, OptionSpec, Options, PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat,
    Side, Table, TableView, Trick, TrickPlay, TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct Calypso;

crate::verbs! {
    /// What a record of Calypso can say.
    #[derive(Copy)]
    pub enum Verb in "Calypso" {
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

/// CA-3: every assignment of four different suits, as the suits of N, E, S and W in that order.
const SUIT_ASSIGNMENTS: &[&str] = &[
    "SDHC", "SHDC", "SHCD", "SDCH", "SCHD", "SCDH", "HSDC", "HSCD", "HDSC", "HDCS", "HCSD", "HCDS",
    "DSHC", "DSCH", "DHSC", "DHCS", "DCSH", "DCHS", "CSHD", "CSDH", "CHSD", "CHDS", "CDSH", "CDHS",
];

static INFO: GameInfo = GameInfo {
    id: "calypso",
    name: "Calypso",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "208-card pack (four 52-card packs, identical cards interchangeable), A high; four deals \
           of 13 cards each from the same pack make a game",
    // No target: the game ends after its fourth deal (§4.3).
    game_target: 0,
    options: &[
        OptionSpec {
            name: "suits",
            kind: OptionKind::Choice {
                values: SUIT_ASSIGNMENTS,
                default: "SDHC",
            },
            description: "Each player's personal trump suit for the whole game, as the suits of N, E, S \
                          and W in that order: `SDHC` (the default) is N spades, E diamonds, S hearts, \
                          W clubs, so the spade player partners the heart player. Any four different \
                          suits (CA-3).",
            rule: "calypso.md §1, CA-3",
        },
        OptionSpec {
            name: "tie",
            kind: OptionKind::Choice {
                values: &["draw", "extra_deal"],
                default: "draw",
            },
            description: "`draw`: equal totals after the fourth deal are a drawn game (the ruling); \
                          `extra_deal`: another deal is played, from the whole pack gathered and \
                          shuffled, its own cards scored as §4.3 scores a game and added to the totals, \
                          until the totals differ.",
            rule: "calypso.md CA-7",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: each established revoke costs the offending side 100 points (the \
                          rulings' default, the text being silent); `none`: revokes are reported only.",
            rule: "calypso.md §5, CA-8",
        },
    ],
    rules: "docs/rules/calypso.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[CALYPSO_COMPLETED],
    score_codes: &[CALYPSOS, WON_CARDS, CALYPSO_CARDS],
    titles: crate::engine::Titles(&[
        (CALYPSO_COMPLETED, "Calypso completed"),
        (CALYPSOS, "Completed calypsos (500, 750, 1000, 1000)"),
        (WON_CARDS, "Cards in the won-tricks piles, 10 each"),
        (CALYPSO_CARDS, "Cards in the calypsos in progress, 20 each"),
    ]),
};

const CALYPSO_COMPLETED: &str = "calypso_completed";
/// The parts of a hand score: what the deal changed in each side's §4.3 total.
const CALYPSOS: &str = "calypsos";
const WON_CARDS: &str = "won_cards";
const CALYPSO_CARDS: &str = "calypso_cards";

/// §1: 13 cards each, 13 tricks a deal; four deals a game.
const TRICKS: usize = 13;
const DEALS: u32 = 4;
/// §1: A high … 2 low; a calypso is one card of each of the 13 ranks.
const ORDER: RankOrder = RankOrder::ACE_HIGH;
const RANKS: usize = 13;
/// §4.3: the first, second, third and fourth calypso of a player.
const CALYPSO_VALUES: [i32; 4] = [500, 750, 1000, 1000];
const PER_WON_CARD: i32 = 10;
const PER_CALYPSO_CARD: i32 = 20;
/// §5 DEFAULT: each established revoke.
const REVOKE_PENALTY: i32 = 100;

fn pack() -> Pack {
    packs::calypso208()
}

/// What one player has built in the game so far (§4.2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CalypsoPiles)]
pub struct Piles {
    /// Completed calypsos (0 to 4).
    #[serde(default)]
    pub calypsos: u8,
    /// The calypso in progress: cards of the player's own suit, each rank once, highest first.
    #[serde(default)]
    pub in_progress: Vec<Card>,
    /// The won-tricks pile, in the order the cards came to it.
    #[serde(default)]
    pub won: Vec<Card>,
}

impl Piles {
    fn has_rank(&self, card: Card) -> bool {
        self.in_progress
            .iter()
            .any(|c| c.rank_unchecked() == card.rank_unchecked())
    }

    /// §4.3: what the completed calypsos score.
    fn calypso_value(&self) -> i32 {
        CALYPSO_VALUES[..self.calypsos as usize].iter().sum()
    }

    /// §4.3: the player's part of his side's total.
    fn value(&self) -> i32 {
        self.calypso_value()
            + PER_WON_CARD * self.won.len() as i32
            + PER_CALYPSO_CARD * self.in_progress.len() as i32
    }

    /// Every card the player has built or won, a completed calypso as one of each rank of `suit`.
    fn cards(&self, suit: Suit) -> impl Iterator<Item = Card> + '_ {
        let calypso = CardSet::suit(suit).intersect(pack().cards);
        (0..self.calypsos)
            .flat_map(move |_| calypso.iter())
            .chain(self.in_progress.iter().copied())
            .chain(self.won.iter().copied())
    }

    fn card_count(&self) -> usize {
        self.calypsos as usize * RANKS + self.in_progress.len() + self.won.len()
    }
}

/// What Calypso carries from deal to deal: each player's piles (§4.2: "calypsos in progress and
/// won piles carry across the four deals"). The undealt remainder is not carried apart: identical
/// cards being interchangeable, it is the pack less every card in these piles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CalypsoCarried)]
pub struct Carried {
    /// Each player's completed calypsos, calypso in progress and won-tricks pile so far in this
    /// game, by seat (a seat left out has none yet).
    #[serde(default)]
    #[schema(value_type = BTreeMap<String, Piles>)]
    pub piles: BTreeMap<Seat, Piles>,
}

/// What a Calypso adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = CalypsoDetails)]
pub struct Details {
    /// Which deal of the game this hand is: 1 to 4, then 5 on for extra deals (`tie = extra_deal`).
    pub deal: u32,
    /// Whether this deal is an extra deal after equal totals (CA-7's variant).
    pub extra_deal: bool,
    /// Each player's personal trump suit (CA-3).
    #[schema(value_type = BTreeMap<String, Suit>)]
    pub suits: BTreeMap<Seat, Suit>,
    /// Each player's piles after the tricks played (before the hand: the match state's).
    #[schema(value_type = BTreeMap<String, Piles>)]
    pub piles: BTreeMap<Seat, Piles>,
    /// Cards left undealt for the next deals of the game.
    pub undealt: u32,
}

/// The game's options, read once.
#[derive(Clone, Copy)]
struct Variant {
    /// Each seat's own suit, by seat position.
    suits: [Suit; 4],
    extra_deal: bool,
    penalty: bool,
}

impl Variant {
    fn of(options: &Options) -> Variant {
        let mut suits = [Suit::Spades; 4];
        for (pos, letter) in options.choice("suits").chars().enumerate() {
            suits[pos] = letter.to_string().parse().expect("a listed assignment");
        }
        Variant {
            suits,
            extra_deal: options.choice("tie") == "extra_deal",
            penalty: options.choice("revoke_penalty") == "default",
        }
    }

    fn own(&self, seat: Seat) -> Suit {
        self.suits[seat.pos()]
    }

    /// The player whose own suit `suit` is.
    fn owner(&self, suit: Suit) -> Seat {
        Table::FOUR
            .seats()
            .find(|s| self.own(*s) == suit)
            .expect("four different suits")
    }
}

fn partner(seat: Seat) -> Seat {
    Table::FOUR.left(Table::FOUR.left(seat))
}

impl Rules for Calypso {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: pack(),
            hand: HandSize::Each(TRICKS),
            counted_by: None,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let variant = Variant::of(options);
        let carried: Carried = details::read(&before.details, "/match_state")?;
        let deal = before.hands_played + 1;
        let extra = deal > DEALS;
        if extra {
            extra_deal_allowed(&variant, before, &carried)?;
        } else {
            check_carried(&variant, before, &carried)?;
        }
        let mut players: [Piles; 4] = Default::default();
        for (seat, piles) in &carried.piles {
            players[seat.pos()] = piles.clone();
        }
        // §1, CA-d: the deal comes from the undealt remainder, the pack less what the game holds.
        let mut remainder = pack().copies.expect("four packs");
        for seat in table.seats() {
            for card in players[seat.pos()].cards(variant.own(seat)) {
                remainder.remove(card);
            }
        }
        let from = Pack {
            name: if deal == 1 || extra {
                "four 52-card packs"
            } else {
                "undealt remainder (the four packs less the cards of the game's earlier deals)"
            },
            cards: remainder.distinct(),
            copies: Some(remainder),
        };
        let dealt = deal::check_holdings::<CardCounts, _>(record, table, &from)?;
        let dealer = record.dealer;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(table.sides());
        Ok(Box::new(Hand {
            variant,
            deal,
            extra,
            undealt: remainder.len() - dealt.all.len(),
            play: TrickPlay::new(table, dealt.hands, table.left(dealer)),
            before: players.clone(),
            players,
            revokes: Vec::new(),
            adj,
        }))
    }
}

/// The side totals of §4.3 that `players` make, before any revoke penalty.
fn values(players: &[Piles; 4]) -> PerSide<i32> {
    let mut out = PerSide::over(Side::BOTH);
    for seat in Table::FOUR.seats() {
        out[Table::FOUR.side(seat)] += players[seat.pos()].value();
    }
    out
}

/// CA-7's variant: a deal after the fourth is an extra deal, played only under `tie = extra_deal`
/// while the totals are equal, from the whole pack (nothing carried).
fn extra_deal_allowed(
    variant: &Variant,
    before: &MatchState,
    carried: &Carried,
) -> Result<(), Vec<FieldError>> {
    let (ns, ew) = (before.scores[Side::NS], before.scores[Side::EW]);
    if !variant.extra_deal || ns != ew {
        let why = if variant.extra_deal {
            format!("the totals differ (NS {ns}, EW {ew}), so the game is decided")
        } else {
            "the game is decided (equal totals are a draw, CA-7)".into()
        };
        return Err(vec![FieldError::new(
            "/match_state/hands_played".into(),
            format!(
                "a Calypso game is {DEALS} deals and {} have been played: {why}; start a new match",
                before.hands_played
            ),
        )]);
    }
    if carried.piles.values().any(|p| *p != Piles::default()) {
        return Err(vec![FieldError::new(
            "/match_state/piles".into(),
            "an extra deal is dealt from the whole pack gathered after the tie: nothing is carried into it (expected no piles)"
                .into(),
        )]);
    }
    Ok(())
}

/// CA-d, README C14: a carried state no play can produce is refused (`bad_match_state`).
fn check_carried(
    variant: &Variant,
    before: &MatchState,
    carried: &Carried,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    let base = "/match_state/piles";
    let mut all = CardCounts::default();
    let mut total = 0;
    for (&seat, piles) in &carried.piles {
        let at = format!("{base}/{seat}");
        if Table::FOUR.seats().all(|s| s != seat) {
            errors.push(FieldError::new(
                at,
                format!("no seat {seat} at this table: expected N, E, S or W"),
            ));
            continue;
        }
        let own = variant.own(seat);
        if piles.calypsos as usize > CALYPSO_VALUES.len() {
            errors.push(FieldError::new(
                format!("{at}/calypsos"),
                format!(
                    "{} completed calypsos: the four packs hold cards for at most 4",
                    piles.calypsos
                ),
            ));
        }
        let mut ranks = 0u16;
        for (i, &card) in piles.in_progress.iter().enumerate() {
            if card.suit() != Some(own) || pack().count(card) == 0 {
                errors.push(FieldError::new(
                    format!("{at}/in_progress/{i}"),
                    format!(
                        "{card} is not of {seat}'s own suit ({}): a calypso holds only its owner's suit (§4.2)",
                        own.letter()
                    ),
                ));
                continue;
            }
            let bit = 1 << ORDER.strength(card.rank_unchecked());
            if ranks & bit != 0 {
                errors.push(FieldError::new(
                    format!("{at}/in_progress/{i}"),
                    format!("{card}: a calypso in progress holds each rank once (§4.2)"),
                ));
            }
            ranks |= bit;
        }
        if piles.in_progress.len() >= RANKS {
            errors.push(FieldError::new(
                format!("{at}/in_progress"),
                "a calypso of all 13 ranks is complete and set aside at once (§4.2): count it in `calypsos`".into(),
            ));
        }
        let partners = variant.own(partner(seat));
        for (i, &card) in piles.won.iter().enumerate() {
            if pack().count(card) == 0 {
                errors.push(FieldError::new(
                    format!("{at}/won/{i}"),
                    format!("{card} is not a card of the four 52-card packs"),
                ));
            } else if card.suit() == Some(partners) {
                errors.push(FieldError::new(
                    format!("{at}/won/{i}"),
                    format!(
                        "{card} is of {seat}'s partner's suit: such cards pass to the partner (§4.2, CA-4)"
                    ),
                ));
            }
        }
        if errors.is_empty() {
            for card in piles.cards(own) {
                all.insert(card);
            }
            total += piles.card_count();
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let played = before.hands_played as usize;
    if total != 52 * played {
        errors.push(FieldError::new(
            base.into(),
            format!(
                "the piles hold {total} cards, but {played} deals of 52 have been played: every card of a deal ends in a calypso or a won pile (§4.2)"
            ),
        ));
    }
    // CA-c: no card more often than the four packs hold it, completed calypsos counted.
    if let Some(card) = all
        .distinct()
        .iter()
        .find(|&c| all.count(c) > pack().count(c))
    {
        errors.push(FieldError::new(
            base.into(),
            format!(
                "the piles hold {} copies of {card}, completed calypsos counted: the four packs have {}",
                all.count(card),
                pack().count(card)
            ),
        ));
    }
    // CA-c: the totals are the piles' values less 100 for each revoke (exactly the values under
    // `revoke_penalty = none`); a player can revoke in at most 12 tricks of a deal.
    let mut players: [Piles; 4] = Default::default();
    for (seat, piles) in &carried.piles {
        players[seat.pos()] = piles.clone();
    }
    let values = values(&players);
    let most = if variant.penalty {
        REVOKE_PENALTY * 2 * 12 * played as i32
    } else {
        0
    };
    for side in Side::BOTH {
        let lost = values[side] - before.scores[side];
        if lost < 0 || lost > most || lost % REVOKE_PENALTY != 0 {
            let penalties = if variant.penalty {
                "less 100 for each revoke"
            } else {
                "exactly (revoke_penalty none)"
            };
            errors.push(FieldError::new(
                format!("/match_state/scores/{side}"),
                format!(
                    "{side} has {}, but its piles are worth {} (§4.3), {penalties}: no play gives that total",
                    before.scores[side], values[side]
                ),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(Clone)]
struct Hand {
    variant: Variant,
    deal: u32,
    extra: bool,
    /// Cards of the pack neither in the piles nor dealt now.
    undealt: u32,
    play: TrickPlay<CardCounts>,
    /// Each player's piles as the hand began, by seat position.
    before: [Piles; 4],
    /// Each player's piles now.
    players: [Piles; 4],
    /// Established revokes: the irregularity's index and the offending side.
    revokes: Vec<(usize, Side)>,
    adj: Adjudication,
}

impl Hand {
    fn judge(&self) -> impl Fn(&Trick, CardCounts, Card) -> Option<Fault> + use<> {
        |trick, hand, card| must_follow_suit(Table::FOUR, "calypso.md §3", trick, hand, card)
    }

    fn is_over(&self) -> bool {
        self.adj.tricks.len() == TRICKS
    }

    /// §4.1: the winner of the complete trick. A card is trumping when a non-leader void in the
    /// led suit played it from his own suit (CA-1; a revoker is not void, CA-a: his card has a
    /// fault pending), or when the leader led his own suit. Trumping cards compete by rank among
    /// themselves, else the led suit does; equal ranks go to the card played first (CA-2).
    fn winner(&self) -> Seat {
        let trick = &self.play.trick;
        let plays = trick.plays();
        let led = plays[0].card.suit_unchecked();
        let trumping: Vec<bool> = plays
            .iter()
            .enumerate()
            .map(|(pos, p)| {
                let suit = p.card.suit_unchecked();
                let own = suit == self.variant.own(p.seat);
                if pos == 0 {
                    own
                } else {
                    own && suit != led && !self.play.faulted(trick.action_index(pos))
                }
            })
            .collect();
        let by_trump = trumping.iter().any(|&t| t);
        let best = trick.winner_by_play(|pos, p| {
            let competes = if by_trump {
                trumping[pos]
            } else {
                p.card.suit_unchecked() == led
            };
            competes.then(|| ORDER.strength(p.card.rank_unchecked()) as u16)
        });
        plays[best.expect("the led card competes")].seat
    }

    fn close_trick(&mut self) {
        let winner = self.winner();
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            let side = Table::FOUR.side(e.seat);
            let consequence = if self.variant.penalty {
                format!(
                    "{} lose {REVOKE_PENALTY} points at the final scoring, counted in this deal's provisional score; the play stands as recorded (calypso.md §5 DEFAULT)",
                    side.spoken()
                )
            } else {
                "none: the revoke_penalty option is 'none'; the play stands as recorded".into()
            };
            self.revokes.push((self.adj.irregularities.len(), side));
            self.adj.irregularities.push(e.irregularity(consequence));
        }
        self.place(&trick, winner);
        self.adj.tally[Table::FOUR.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        if self.is_over() {
            self.play.stop();
        }
    }

    /// §4.2: the winner distributes the trick's cards in the order they were played.
    fn place(&mut self, trick: &Trick, winner: Seat) {
        let last = trick.action_index(trick.len() - 1);
        for p in trick.plays() {
            let owner = self.variant.owner(p.card.suit_unchecked());
            if owner != winner && owner != partner(winner) {
                // Step 1: an opponent's suit goes to the winner's pile.
                self.players[winner.pos()].won.push(p.card);
                continue;
            }
            // Steps 2 and 3: the owner's calypso takes a rank it lacks; a duplicate goes to the
            // owner's pile (CA-4: a partner's duplicates to the partner's).
            let piles = &mut self.players[owner.pos()];
            if piles.has_rank(p.card) {
                piles.won.push(p.card);
                continue;
            }
            piles.in_progress.push(p.card);
            piles
                .in_progress
                .sort_by_key(|c| std::cmp::Reverse(ORDER.strength(c.rank_unchecked())));
            if piles.in_progress.len() == RANKS {
                // CA-5, CA-b: set aside at once; later cards of the trick start the next one.
                let cards = std::mem::take(&mut piles.in_progress);
                piles.calypsos += 1;
                let n = piles.calypsos;
                self.adj.events.push(
                    Event::new(
                        CALYPSO_COMPLETED,
                        last,
                        owner,
                        cards,
                        format!(
                            "{owner} completes his {} calypso with {} from trick {} (§4.2)",
                            ordinal(n),
                            p.card,
                            trick.number
                        ),
                    )
                    .in_trick(trick.number),
                );
            }
        }
    }

    fn piles(&self) -> BTreeMap<Seat, Piles> {
        Table::FOUR
            .seats()
            .map(|s| (s, self.players[s.pos()].clone()))
            .collect()
    }

    fn details(&self) -> Details {
        Details {
            deal: self.deal,
            extra_deal: self.extra,
            suits: Table::FOUR
                .seats()
                .map(|s| (s, self.variant.own(s)))
                .collect(),
            piles: self.piles(),
            undealt: self.undealt,
        }
    }

    /// §4.3, CA-c: the hand score is what the deal changed in each side's total (the revoke
    /// penalties included); after the fourth deal the totals decide the game.
    fn score(&mut self) {
        for side in Side::BOTH {
            let (mut calypsos, mut won, mut building) = (0, 0, 0);
            for seat in Table::FOUR.members(side) {
                let (was, now) = (&self.before[seat.pos()], &self.players[seat.pos()]);
                calypsos += now.calypso_value() - was.calypso_value();
                won += PER_WON_CARD * (now.won.len() as i32 - was.won.len() as i32);
                building += PER_CALYPSO_CARD
                    * (now.in_progress.len() as i32 - was.in_progress.len() as i32);
            }
            self.adj
                .score(side, calypsos, ScoreSource::Tricks, CALYPSOS, None);
            self.adj
                .score(side, won, ScoreSource::Tricks, WON_CARDS, None);
            self.adj
                .score(side, building, ScoreSource::Tricks, CALYPSO_CARDS, None);
        }
        if self.variant.penalty {
            for &(at, side) in &self.revokes {
                self.adj.penalize(at, side, -REVOKE_PENALTY);
            }
        }
        self.adj.settle();
        let mut carried = Carried {
            piles: self.piles(),
        };
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(Table::FOUR.left(self.adj.dealer));
        let last = self.deal >= DEALS;
        if last {
            if m.scores[Side::NS] == m.scores[Side::EW] && self.variant.extra_deal {
                // CA-7's variant: the pack is gathered for an extra deal; nothing is carried.
                carried = Carried::default();
            } else {
                // CA-7: the higher total wins; equal totals are a drawn game.
                m.highest_wins();
            }
        }
        m.details = details::Details::of(carried);
    }
}

fn ordinal(n: u8) -> &'static str {
    ["first", "second", "third", "fourth"][(n as usize - 1).min(3)]
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.is_over() {
            return Err(RecordError::after_end(
                index,
                action,
                "the deal ended with its 13th trick",
            ));
        }
        let seat = action.seat;
        match action.kind {
            Verb::Play(card) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            Verb::Correct(card) => self.play.correct(index, seat, card, self.judge()),
        }
    }

    fn view(&self) -> TableView {
        let over = self.is_over();
        let mut view = TableView::new(
            if over { "over" } else { "play" },
            self.play.to_play().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details());
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.play.to_play().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.is_over() {
            return Vec::new();
        }
        self.play.candidates(Verb::Play, Verb::Correct)
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = if self.is_over() {
            Ending::Over
        } else {
            Ending::Open {
                due: self.play.to_play(),
                detail: format!(
                    "the record stops in trick {} of {TRICKS}: every trick of the deal is played out (CA-d)",
                    self.play.trick.number
                ),
            }
        };
        if self.adj.unscored(error, ending) {
            for i in &mut self.adj.irregularities {
                i.consequence =
                    "none: the record error leaves the deal unscored (README C5)".into();
            }
        } else {
            self.score();
        }
        self.adj.details = details::Details::of(self.details());
        self.adj
    }
}
