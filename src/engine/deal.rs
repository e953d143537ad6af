//! Checking a recorded deal against a game's pack and table. Problems here are refusals (HTTP 422 with
//! a pointer), because no adjudication can start from a deal that is not the game's pack.

use super::FieldError;
use super::trick::MAX_PLAYS;
use crate::cards::{Card, CardSet, Holding, Pack};
use crate::record::{HandRecord, Verbs};
use crate::seat::{Seat, Table};

/// The dealt cards of every seat, once checked: sets of distinct cards, or multisets (`CardCounts`)
/// for a pack with copies.
pub struct Dealt<H: Holding = CardSet> {
    pub hands: [H; MAX_PLAYS],
    pub all: H,
}

/// Every seat of `table` present and no other, every card from `pack` (a pack of distinct cards).
pub fn check_cards<V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    pack: &Pack,
) -> Result<Dealt, Vec<FieldError>> {
    check_holdings(record, table, pack)
}

/// Every seat of `table` present and no other, every card from `pack`, no card more often than the
/// pack has it.
pub fn check_holdings<H: Holding, V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    pack: &Pack,
) -> Result<Dealt<H>, Vec<FieldError>> {
    let mut errors = Vec::new();
    if table.resolve(record.dealer).is_none() {
        errors.push(FieldError::new(
            "/dealer".into(),
            format!(
                "'{}' is not a seat here: expected {}",
                record.dealer,
                table.names()
            ),
        ));
    }
    for seat in record.players.keys() {
        if table.resolve(*seat).is_none() {
            errors.push(FieldError::new(
                format!("/players/{seat}"),
                format!("no seat {seat} at this table: expected {}", table.names()),
            ));
        }
    }
    let mut hands = [H::default(); MAX_PLAYS];
    let mut all = H::default();
    let mut seen = [false; MAX_PLAYS];
    for (seat, cards) in &record.deal {
        let Some(at) = table.resolve(*seat) else {
            errors.push(FieldError::new(
                format!("/deal/{seat}"),
                format!("no seat {seat} at this table: expected {}", table.names()),
            ));
            continue;
        };
        // `P1` and `N` name the same seat at a four-player table: one hand per seat.
        if std::mem::replace(&mut seen[at.pos()], true) {
            errors.push(FieldError::new(
                format!("/deal/{seat}"),
                format!("seat {at} is given two hands (as {seat} and under another name)"),
            ));
            continue;
        }
        for (i, &card) in cards.iter().enumerate() {
            let refusal = match pack.count(card) {
                0 => format!("{card} is not in the {}", pack.name),
                1 if all.contains(card) => format!(
                    "{card} is dealt twice (first at {})",
                    first_place(record, card)
                ),
                copies if all.count(card) >= copies => format!(
                    "{card} is dealt more often than the {copies} copies of the {}",
                    pack.name
                ),
                _ => {
                    all.insert(card);
                    hands[at.pos()].insert(card);
                    continue;
                }
            };
            errors.push(FieldError::new(format!("/deal/{seat}/{i}"), refusal));
        }
    }
    for seat in table.seats() {
        if !record.deal.keys().any(|s| table.resolve(*s) == Some(seat)) {
            errors.push(FieldError::new(
                "/deal".into(),
                format!("the deal has no hand for seat {seat}"),
            ));
        }
    }
    if errors.is_empty() {
        Ok(Dealt { hands, all })
    } else {
        Err(errors)
    }
}

/// Pointer to the first place `card` is dealt (only needed to explain a duplicate).
fn first_place<V: Verbs>(record: &HandRecord<V>, card: Card) -> String {
    record
        .deal
        .iter()
        .find_map(|(seat, cards)| {
            cards
                .iter()
                .position(|&c| c == card)
                .map(|i| format!("/deal/{seat}/{i}"))
        })
        .unwrap_or_default()
}

/// The whole pack was dealt (a missing card would be a wrong total).
pub fn check_whole_pack<H: Holding>(dealt: &Dealt<H>, pack: &Pack) -> Result<(), Vec<FieldError>> {
    // Every card was counted against its copies in the pack as it was dealt, so the same total
    // means the whole pack; the missing cards are only listed for the refusal.
    if dealt.all.len() == pack.len() {
        return Ok(());
    }
    let list: Vec<_> = pack
        .cards
        .iter()
        .flat_map(|c| {
            let missing = pack.count(c).saturating_sub(dealt.all.count(c));
            std::iter::repeat_n(c, missing as usize)
        })
        .map(|c| c.to_string())
        .collect();
    Err(vec![FieldError::new(
        "/deal".into(),
        format!(
            "the deal must use the whole {} ({} cards); missing: {}",
            pack.name,
            pack.len(),
            list.join(" ")
        ),
    )])
}

/// Each seat was dealt exactly `n` cards.
pub fn check_counts<V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    n: usize,
) -> Result<(), Vec<FieldError>> {
    let errors: Vec<_> = record
        .deal
        .iter()
        .filter(|(s, cards)| table.resolve(**s).is_some() && cards.len() != n)
        .map(|(s, cards)| {
            FieldError::new(
                format!("/deal/{s}"),
                format!("{s} was dealt {} cards; expected {n}", cards.len()),
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Exactly one face-up card, and it was dealt to `dealer`.
pub fn dealer_face_up<H: Holding, V: Verbs>(
    record: &HandRecord<V>,
    dealt: &Dealt<H>,
    dealer: Seat,
    what: &str,
) -> Result<Card, Vec<FieldError>> {
    match record.face_up.as_slice() {
        [card] if dealt.hands[dealer.pos()].contains(*card) => Ok(*card),
        [card] => Err(vec![FieldError::new(
            "/face_up/0".into(),
            format!("{what} {card} must be one of the dealer's ({dealer}) dealt cards"),
        )]),
        _ => Err(vec![FieldError::new(
            "/face_up".into(),
            format!("expected exactly one face-up card: {what}"),
        )]),
    }
}

/// The game turns no card up and keeps none back: `face_up` and `stock` must be empty. `why` says
/// what the game does with the pack instead.
pub fn check_nothing_undealt<V: Verbs>(
    record: &HandRecord<V>,
    why: &str,
) -> Result<(), Vec<FieldError>> {
    refuse_fields(
        [("face_up", &record.face_up), ("stock", &record.stock)],
        why,
    )
}

/// The game deals every card to the seats, a face-up one included (Malilla's trump card, the
/// Stubs & Spoils Color Card): `stock` must be empty. `why` says where the pack goes instead.
pub fn check_no_stock<V: Verbs>(record: &HandRecord<V>, why: &str) -> Result<(), Vec<FieldError>> {
    refuse_fields([("stock", &record.stock)], why)
}

/// Each of `fields` that is not empty is refused at its pointer.
fn refuse_fields<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a Vec<Card>)>,
    why: &str,
) -> Result<(), Vec<FieldError>> {
    let errors: Vec<_> = fields
        .into_iter()
        .filter(|(_, cards)| !cards.is_empty())
        .map(|(field, _)| FieldError::new(format!("/{field}"), format!("{why}: leave {field} out")))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Cards outside the seats' hands (`field` = `stock` or `face_up`): each from `pack` and not dealt
/// elsewhere. They join `dealt.all`, so `check_whole_pack` sees them.
pub fn check_undealt<H: Holding>(
    cards: &[Card],
    field: &str,
    pack: &Pack,
    dealt: &mut Dealt<H>,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    for (i, &card) in cards.iter().enumerate() {
        if pack.count(card) == 0 {
            errors.push(FieldError::new(
                format!("/{field}/{i}"),
                format!("{card} is not in the {}", pack.name),
            ));
        } else if dealt.all.count(card) >= pack.count(card) {
            errors.push(FieldError::new(
                format!("/{field}/{i}"),
                format!("{card} is given more often than the pack has it: it is also dealt or listed earlier"),
            ));
        } else {
            dealt.all.insert(card);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::packs;

    #[test]
    fn a_seat_named_twice_is_refused() {
        let record: HandRecord = serde_json::from_value(serde_json::json!({
            "dealer": "N",
            "deal": {"N": ["AS"], "P1": ["KS"], "E": ["QS"], "S": ["JS"], "W": ["TS"]}
        }))
        .unwrap();
        let errors = check_cards(&record, Table::FOUR, &packs::euchre24())
            .err()
            .expect("refused");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].pointer, "/deal/P1");
    }
}
