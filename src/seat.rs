//! Seats, turn order and sides (`docs/rules/README.md`, "Seats and direction").

use std::fmt;
use std::str::FromStr;
use utoipa::PartialSchema;

/// A seat at the table: `N E S W` at four-player tables, `P1`..`P7` otherwise
/// (at a four-player table `P1..P4` are accepted as `N E S W`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(u8);

const NUMBERED: u8 = 16;

impl Seat {
    pub const N: Seat = Seat(0);
    pub const E: Seat = Seat(1);
    pub const S: Seat = Seat(2);
    pub const W: Seat = Seat(3);
    pub const COMPASS: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    /// Position clockwise from the table's first seat (N or P1).
    #[inline]
    pub const fn pos(self) -> usize {
        (self.0 & (NUMBERED - 1)) as usize
    }

    fn numbered(pos: usize) -> Seat {
        Seat(NUMBERED + pos as u8)
    }

    /// A numbered seat by its name (`P1`..`P7`).
    fn numbered_from(s: &str) -> Result<Seat, String> {
        s.strip_prefix('P')
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=7).contains(n))
            .map(|n| Seat::numbered(n - 1))
            .ok_or_else(|| format!("'{s}' is not a seat: expected N, E, S, W (or P1..P7)"))
    }

    /// Every seat name (`N E S W`, `P1`..`P7`).
    fn every_name() -> impl Iterator<Item = Seat> {
        (0..4).chain(NUMBERED..NUMBERED + 7).map(Seat)
    }

    /// One bit per seat name, so that the names a record uses are gathered in one mask
    /// (`Table::name_bits`).
    #[inline]
    pub fn name_bit(self) -> u32 {
        1 << self.0
    }
}

impl Seat {
    /// The seat's name on the wire (`N`, `E`, `S`, `W`; `P1`..`P7`): one look-up, as a ruling
    /// names a seat at every card.
    #[inline]
    pub fn code(self) -> &'static str {
        const CODES: [&str; NUMBERED as usize + 7] = [
            "N", "E", "S", "W", "", "", "", "", "", "", "", "", "", "", "", "", "P1", "P2", "P3",
            "P4", "P5", "P6", "P7",
        ];
        CODES[self.0 as usize]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Seat {
    type Err = String;
    /// A compass seat by its one byte, as every action of a four-seat record names one (inlined
    /// where a record's seats are read); a numbered seat the longer way.
    #[inline]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            b"N" => Ok(Seat::N),
            b"E" => Ok(Seat::E),
            b"S" => Ok(Seat::S),
            b"W" => Ok(Seat::W),
            _ => Seat::numbered_from(s),
        }
    }
}

crate::cards::serde_as_string!(Seat, "a string");

impl utoipa::PartialSchema for Seat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^([NESW]|P[1-7])$"))
            .description(Some(
                "A seat: N E S W clockwise at four-player tables, P1..P7 otherwise.",
            ))
            .examples([serde_json::json!("N")])
            .into()
    }
}

impl utoipa::ToSchema for Seat {}

/// The seats of one game's table, in clockwise order, and how they play and score: each for
/// himself, or in fixed teams whose partners sit evenly round the table (every `size / team` seats:
/// N–S v E–W at four, three pairs P1+P4, P2+P5, P3+P6 or two teams of three P1+P3+P5, P2+P4+P6 at
/// six). Per-hand camps (a declarer against the rest, an ally made known by play) are not the
/// table's: at such a table every seat is its own side (`Table::solo`) and the hand names its camps
/// (`Adjudication.camps`). A bank against punters is the same shape: the bank is the seat that deals
/// every coup, and each punter settles with it alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(into = "TableShape")]
pub struct Table {
    /// Chairs round the table, seats out included: they name the seats (`N E S W` at four,
    /// `P1`..`Pn` otherwise). `players` counts the seats still in.
    pub size: usize,
    /// Seats per fixed team (1: each for himself).
    team: u8,
    /// Play passes to the right (counter-clockwise), as in Truco and Tresette's traditional option.
    counterclockwise: bool,
    /// Seats may leave between hands (Knockout Whist): a match state may name seats `out`.
    shrinks: bool,
    /// Positions of the seats that have left the table: they are skipped in turn, dealt nothing
    /// and act no more, but their sides keep their scores.
    out: u8,
}

impl Table {
    /// Four players in partnerships N–S v E–W, clockwise.
    pub const FOUR: Table = Table::teams(4, 2);

    /// Six players in three pairs, partners opposite (P1+P4, P2+P5, P3+P6), clockwise.
    pub const SIX_IN_PAIRS: Table = Table::teams(6, 2);

    /// `size` players each for himself, clockwise.
    pub const fn solo(size: usize) -> Table {
        assert!(size >= 2 && size <= MAX_SOLO, "2 to 7 seats");
        Table {
            size,
            team: 1,
            counterclockwise: false,
            shrinks: false,
            out: 0,
        }
    }

    /// `size` players in fixed teams of `of`, partners every `size / of` seats, clockwise. With at
    /// most seven seats and at least two teams these are four in pairs, six in pairs and six in
    /// teams of three: any other shape does not build.
    pub const fn teams(size: usize, of: usize) -> Table {
        assert!(
            matches!((size, of), (4, 2) | (6, 2) | (6, 3)),
            "fixed teams: four in pairs, six in pairs or six in threes"
        );
        Table {
            size,
            team: of as u8,
            counterclockwise: false,
            shrinks: false,
            out: 0,
        }
    }

    /// The same table with play passing to the right.
    pub const fn counterclockwise(self) -> Table {
        Table {
            counterclockwise: true,
            ..self
        }
    }

    /// The same table where seats may leave between hands (Knockout Whist).
    pub const fn shrinking(self) -> Table {
        Table {
            shrinks: true,
            ..self
        }
    }

    /// Whether seats may leave this table between hands.
    pub fn shrinks(self) -> bool {
        self.shrinks
    }

    /// The same table without `seats` (seats that have left it): they are skipped in turn order,
    /// `seats` and `resolve` leave them out, their sides still score.
    pub fn without(self, seats: impl IntoIterator<Item = Seat>) -> Table {
        let out = seats
            .into_iter()
            .fold(self.out, |out, s| out | 1 << (s.pos() % self.size));
        debug_assert!(
            out.count_ones() < self.size as u32,
            "a seat stays at the table"
        );
        Table { out, ..self }
    }

    /// Whether `seat` (as this table names it) has left the table.
    #[inline]
    pub fn is_out(self, seat: Seat) -> bool {
        self.out >> seat.pos() & 1 == 1
    }

    /// Seats still at the table.
    #[inline]
    pub fn players(self) -> usize {
        self.size - self.out.count_ones() as usize
    }

    /// Seats per fixed team: 1 where each plays for himself, 2 in partnerships.
    pub fn team_size(self) -> usize {
        self.team as usize
    }

    /// The seat at `pos` (taken modulo the table size), in or out.
    #[inline]
    pub fn seat(self, pos: usize) -> Seat {
        self.named(pos % self.size)
    }

    /// The seat at position `pos` (< size).
    #[inline]
    fn named(self, pos: usize) -> Seat {
        if self.size == 4 {
            Seat::COMPASS[pos]
        } else {
            Seat::numbered(pos)
        }
    }

    /// The seat names `resolve` accepts, and among them those it reads as another name (`P1` as
    /// `N` at four seats), as `Seat::name_bit`s: a record's actions are checked against these
    /// masks rather than seat by seat.
    pub fn name_bits(self) -> (u32, u32) {
        let (mut known, mut renamed) = (0, 0);
        for seat in Seat::every_name() {
            if let Some(named) = self.resolve(seat) {
                known |= seat.name_bit();
                if named != seat {
                    renamed |= seat.name_bit();
                }
            }
        }
        (known, renamed)
    }

    /// The seat as this table names it, or `None` when the table has no such seat (or it has left).
    #[inline]
    pub fn resolve(self, seat: Seat) -> Option<Seat> {
        let numbered = seat.0 >= NUMBERED;
        let ok = seat.pos() < self.size && (numbered || self.size == 4) && !self.is_out(seat);
        ok.then(|| self.seat(seat.pos()))
    }

    /// The next seat clockwise ("left") still at the table.
    #[inline]
    pub fn left(self, seat: Seat) -> Seat {
        self.step(seat, 1)
    }

    /// The previous seat clockwise ("right") still at the table.
    #[inline]
    pub fn right(self, seat: Seat) -> Seat {
        self.step(seat, self.size - 1)
    }

    /// The first seat still in, `by` positions on at a time (`by` < size). No division: every
    /// card played asks this.
    #[inline]
    fn step(self, seat: Seat, by: usize) -> Seat {
        let mut pos = seat.pos();
        loop {
            pos += by;
            if pos >= self.size {
                pos -= self.size;
            }
            if self.out >> pos & 1 == 0 {
                return self.named(pos);
            }
        }
    }

    /// The seat after `seat` in the direction of play (and of the deal and the auction).
    #[inline]
    pub fn next(self, seat: Seat) -> Seat {
        if self.counterclockwise {
            self.right(seat)
        } else {
            self.left(seat)
        }
    }

    /// The seats still at the table, clockwise from the first.
    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..self.size)
            .filter(move |&p| self.out >> p & 1 == 0)
            .map(move |p| self.seat(p))
    }

    /// The side `seat` scores for (in or out).
    #[inline]
    pub fn side(self, seat: Seat) -> Side {
        let pos = seat.pos();
        match (self.team, self.size) {
            (1, _) => Side::alone(self.named(pos % self.size)),
            (2, 4) => Side::BOTH[pos & 1],
            (2, _) => Side::pair(pos % (self.size / 2)),
            _ => Side::trio(pos % (self.size / 3)),
        }
    }

    /// The sides that score at this table, those of seats out included.
    pub fn sides(self) -> impl Iterator<Item = Side> {
        (0..self.size / self.team as usize).map(move |i| self.side(self.seat(i)))
    }

    /// The seats scoring for `side`, seats out included.
    pub fn members(self, side: Side) -> impl Iterator<Item = Seat> {
        (0..self.size)
            .map(move |p| self.seat(p))
            .filter(move |&s| self.side(s) == side)
    }

    /// Side names for messages: "NS, EW"; "N, E, S, W" where four play each for himself.
    pub fn side_names(self) -> String {
        self.sides()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Seat names for messages: "N, E, S, W"; "P1, P2, P4 (P3 out)" once a seat has left.
    pub fn names(self) -> String {
        let names = |seats: &mut dyn Iterator<Item = Seat>| {
            seats.map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
        };
        let mut out = (0..self.size)
            .filter(|&p| self.out >> p & 1 == 1)
            .map(|p| self.seat(p))
            .peekable();
        if out.peek().is_none() {
            names(&mut self.seats())
        } else {
            format!("{} ({} out)", names(&mut self.seats()), names(&mut out))
        }
    }
}

/// Which way play passes round a table.
#[derive(Clone, Copy, Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Clockwise,
    Counterclockwise,
}

/// A table as `GET /v1/games` lists it: its seats and the sides they score for.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct TableShape {
    /// Number of players.
    pub players: usize,
    /// The seats, in clockwise order.
    pub seats: Vec<Seat>,
    /// The fixed sides and their seats: `{"NS": ["N", "S"], "EW": ["E", "W"]}` in partnerships,
    /// where each plays for himself a side named as its seat (`{"N": ["N"], ...}` at four,
    /// `{"P1": ["P1"], ...}` otherwise; he has his own camp in a hand with camps),
    /// `{"P1+P4": ["P1", "P4"], ...}` for six in pairs.
    #[schema(value_type = BTreeMap<String, Vec<Seat>>)]
    pub sides: std::collections::BTreeMap<Side, Vec<Seat>>,
    pub direction: Direction,
    /// Seats may leave between hands (Knockout Whist): a match state then names them in `out`.
    pub seats_leave: bool,
}

impl From<Table> for TableShape {
    fn from(t: Table) -> TableShape {
        TableShape {
            players: t.players(),
            seats: t.seats().collect(),
            sides: t
                .sides()
                .map(|side| (side, t.members(side).filter(|&s| !t.is_out(s)).collect()))
                .collect(),
            direction: if t.counterclockwise {
                Direction::Counterclockwise
            } else {
                Direction::Clockwise
            },
            seats_leave: t.shrinks,
        }
    }
}

/// Most players that score alone at one table (seats `P1`..`P7`).
const MAX_SOLO: usize = 7;
/// The pairs of a six-seat table in partnerships.
const PAIRS: usize = 3;
const FIRST_PAIR: u8 = 2 + MAX_SOLO as u8;
/// The teams of three of a six-seat table.
const TRIOS: usize = 2;
const FIRST_TRIO: u8 = FIRST_PAIR + PAIRS as u8;
/// The four players of a four-seat table where each plays for himself, named as their seats.
const FIRST_COMPASS: u8 = FIRST_TRIO + TRIOS as u8;
const SIDES: usize = FIRST_COMPASS as usize + Seat::COMPASS.len();

/// A scoring side: a partnership (`NS`, `EW` at four seats; `P1+P4`, `P2+P5`, `P3+P6` at six), a
/// team of three at six (`P1+P3+P5`, `P2+P4+P6`), or where each plays for himself, one player named
/// as his seat (README "Seats": `N E S W` at four seats, `P1`..`P7` otherwise), so that one player
/// has one name in one answer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Side(u8);

impl Side {
    pub const NS: Side = Side(0);
    pub const EW: Side = Side(1);
    pub const BOTH: [Side; 2] = [Side::NS, Side::EW];

    /// The side of the player at `seat` where each plays for himself: his seat's name.
    pub fn alone(seat: Seat) -> Side {
        if seat.0 >= NUMBERED {
            Side(2 + (seat.pos() % MAX_SOLO) as u8)
        } else {
            Side(FIRST_COMPASS + seat.pos() as u8)
        }
    }

    /// The pair of partners at six seats whose first seat is at position `first` (0, 1 or 2).
    pub fn pair(first: usize) -> Side {
        Side(FIRST_PAIR + (first % PAIRS) as u8)
    }

    /// The team of three at six seats whose first seat is at position `first` (0 or 1).
    pub fn trio(first: usize) -> Side {
        Side(FIRST_TRIO + (first % TRIOS) as u8)
    }

    /// The opposing partnership (partnership sides only).
    pub fn other(self) -> Side {
        debug_assert!(self.0 < 2, "{self} is a player, not a partnership");
        Side(self.0 ^ 1)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// "N–S" / "E–W" / "P1" / "N", as a director says it.
    pub fn spoken(self) -> String {
        match self.0 {
            0 => "N–S".into(),
            1 => "E–W".into(),
            _ => self.to_string(),
        }
    }
}

impl Side {
    /// The side's name on the wire: `NS`, `EW`; `P1`..`P7` or `N E S W` for a player alone;
    /// `P1+P4`, `P2+P5`, `P3+P6` for pairs; `P1+P3+P5`, `P2+P4+P6` for teams of three. Static
    /// strings: every ruling writes sides as keys many times.
    pub fn code(self) -> &'static str {
        const CODES: [&str; SIDES] = [
            "NS", "EW", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P1+P4", "P2+P5", "P3+P6",
            "P1+P3+P5", "P2+P4+P6", "N", "E", "S", "W",
        ];
        CODES[self.0 as usize]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "NS" => Ok(Side::NS),
            "EW" => Ok(Side::EW),
            "N" | "E" | "S" | "W" => s.parse().map(Side::alone),
            "P1+P4" => Ok(Side::pair(0)),
            "P2+P5" => Ok(Side::pair(1)),
            "P3+P6" => Ok(Side::pair(2)),
            "P1+P3+P5" => Ok(Side::trio(0)),
            "P2+P4+P6" => Ok(Side::trio(1)),
            _ => s
                .strip_prefix('P')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=MAX_SOLO).contains(n))
                .map(|n| Side::alone(Seat::numbered(n - 1)))
                .ok_or_else(|| {
                    format!(
                        "'{s}' is not a side: expected NS or EW (where each plays alone, his seat: N, E, S, W at four, P1..P7 otherwise; P1+P4, P2+P5, P3+P6 for six in pairs; P1+P3+P5, P2+P4+P6 for six in threes)"
                    )
                }),
        }
    }
}

crate::cards::serde_as_string!(Side, "a string");

impl utoipa::PartialSchema for Side {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some(
                "^(NS|EW|[NESW]|P[1-7]|P1\\+P4|P2\\+P5|P3\\+P6|P1\\+P3\\+P5|P2\\+P4\\+P6)$",
            ))
            .description(Some(
                "A scoring side: NS (North–South) or EW (East–West); where each plays for himself, his seat (N E S W at four, P1..P7 otherwise); \
                 P1+P4, P2+P5, P3+P6 for six players in pairs; P1+P3+P5, P2+P4+P6 for six in threes.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Side {}

/// A value per side in play, serialized as `{"NS": .., "EW": ..}` (or `{"N": .., "E": ..}`,
/// `{"P1": .., "P2": ..}` where each plays for himself).
/// A new value covers the two partnerships; `over` names other sides. Writing a side adds it.
#[derive(Clone, Copy, Debug)]
pub struct PerSide<T> {
    values: [T; SIDES],
    /// Bit per side in play.
    present: u32,
}

impl<T: Default> Default for PerSide<T> {
    fn default() -> Self {
        PerSide {
            values: std::array::from_fn(|_| T::default()),
            present: 0b11,
        }
    }
}

impl<T: Default> PerSide<T> {
    /// Default values for each of `sides`.
    pub fn over(sides: impl IntoIterator<Item = Side>) -> PerSide<T> {
        let mut out = PerSide {
            values: std::array::from_fn(|_| T::default()),
            present: 0,
        };
        for s in sides {
            out.present |= 1 << s.0;
        }
        out
    }

    /// The sides in play, in order (bit by bit: every hand's scoring walks them).
    pub fn sides(&self) -> impl Iterator<Item = Side> + '_ {
        let mut present = self.present;
        std::iter::from_fn(move || {
            let i = present.trailing_zeros();
            present &= present.wrapping_sub(1);
            (i < SIDES as u32).then_some(Side(i as u8))
        })
    }
}

impl<T: Default + Clone + PartialEq> PerSide<T> {
    /// The same values over `sides`; `Err(side)` names a side outside them with a value.
    pub fn restrict(&self, sides: impl IntoIterator<Item = Side>) -> Result<PerSide<T>, Side> {
        let mut out = PerSide::over(sides);
        for s in self.sides() {
            if out.present >> s.0 & 1 == 1 {
                out.values[s.index()] = self.values[s.index()].clone();
            } else if self.values[s.index()] != T::default() {
                return Err(s);
            }
        }
        Ok(out)
    }
}

/// Equal values side by side; a side absent from one counts as the default value.
impl<T: Default + PartialEq> PartialEq for PerSide<T> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl<T: Default + Eq> Eq for PerSide<T> {}

impl<T> std::ops::Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self.values[side.index()]
    }
}

impl<T> std::ops::IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.present |= 1 << side.0;
        &mut self.values[side.index()]
    }
}

impl<T: serde::Serialize + Default> serde::Serialize for PerSide<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.sides().map(|side| (side, &self.values[side.index()])))
    }
}

impl<'de, T: serde::Deserialize<'de> + Default> serde::Deserialize<'de> for PerSide<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Side, T>::deserialize(d)?;
        // Exactly the sides given: a game's table fills in (or refuses) the others.
        let mut out = PerSide::<T>::over([]);
        for (side, v) in map {
            out[side] = v;
        }
        Ok(out)
    }
}

impl<T: utoipa::ToSchema> utoipa::ToSchema for PerSide<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        format!("PerSide_{}", T::name()).into()
    }
}

// utoipa derives `PartialSchema` from this; it lets `#[schema(inline)]` fields expand to the schema.
impl<T: utoipa::ToSchema> utoipa::__dev::ComposeSchema for PerSide<T> {
    fn compose(
        _generics: Vec<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .property_names(Some(Side::schema()))
            .additional_properties(Some(T::schema()))
            .description(Some(
                "One value per side in play: NS and EW in partnership games; where each plays alone, one per seat (N E S W at four, P1, P2, ... otherwise).",
            ))
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every side's name reads back as that side, and names no other.
    #[test]
    fn every_side_code_reads_back() {
        for i in 0..SIDES as u8 {
            assert_eq!(Side(i).code().parse::<Side>(), Ok(Side(i)));
        }
        assert_eq!(Side::pair(1).to_string(), "P2+P5");
        assert_eq!(Side::trio(1).to_string(), "P2+P4+P6");
    }

    /// Every seat's name reads back as that seat, and the names are the eleven of the wire.
    #[test]
    fn every_seat_code_reads_back() {
        let names: Vec<_> = Seat::every_name().map(Seat::code).collect();
        assert_eq!(
            names,
            ["N", "E", "S", "W", "P1", "P2", "P3", "P4", "P5", "P6", "P7"]
        );
        for seat in Seat::every_name() {
            assert_eq!(seat.code().parse::<Seat>(), Ok(seat));
        }
        assert!("P8".parse::<Seat>().is_err() && "n".parse::<Seat>().is_err());
    }

    #[test]
    fn turn_order_and_sides() {
        let t = Table::FOUR;
        assert_eq!(t.left(Seat::W), Seat::N);
        assert_eq!(t.right(Seat::N), Seat::W);
        assert_eq!(t.side(Seat::E), Side::EW);
        assert_eq!(t.resolve("P3".parse().unwrap()), Some(Seat::S));
        let three = Table::solo(3);
        assert_eq!(three.side("P2".parse().unwrap()).to_string(), "P2");
        assert_eq!(three.sides().count(), 3);
        assert_eq!(Table::FOUR.counterclockwise().next(Seat::N), Seat::W);
        assert_eq!(three.resolve(Seat::N), None);
        assert_eq!(three.left("P3".parse().unwrap()).to_string(), "P1");
        assert!("X".parse::<Seat>().is_err());
    }

    /// Issue 10: three pairs at six seats, partners opposite (README "Seats": P1+P4, P2+P5, P3+P6).
    #[test]
    fn six_seats_in_three_pairs() {
        let t = Table::SIX_IN_PAIRS;
        let seat = |s: &str| s.parse::<Seat>().unwrap();
        let names: Vec<String> = t.sides().map(|s| s.to_string()).collect();
        assert_eq!(names, ["P1+P4", "P2+P5", "P3+P6"]);
        assert_eq!(t.side(seat("P5")), t.side(seat("P2")));
        assert_ne!(t.side(seat("P1")), t.side(seat("P2")));
        assert_eq!(
            t.members(Side::pair(2))
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["P3", "P6"]
        );
        for side in t.sides() {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
        let scores: PerSide<i32> = serde_json::from_str(r#"{"P2+P5": 7}"#).unwrap();
        assert_eq!(scores[Side::pair(1)], 7);
        assert_eq!(scores.restrict(Table::FOUR.sides()), Err(Side::pair(1)));
        assert_eq!(t.left(seat("P6")), seat("P1"));
    }

    /// Fixed teams of three at six seats: partners every other seat (P1+P3+P5 v P2+P4+P6).
    #[test]
    fn six_seats_in_two_teams_of_three() {
        let t = Table::teams(6, 3);
        let seat = |s: &str| s.parse::<Seat>().unwrap();
        let names: Vec<String> = t.sides().map(|s| s.to_string()).collect();
        assert_eq!(names, ["P1+P3+P5", "P2+P4+P6"]);
        assert_eq!(t.side(seat("P5")), t.side(seat("P1")));
        assert_eq!(t.side(seat("P6")), Side::trio(1));
        assert_eq!(t.members(Side::trio(1)).count(), 3);
        for side in t.sides() {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
    }

    /// Issue 19 item 13 (README "Seats"): where each plays for himself, a player's side has his
    /// seat's name, `N E S W` at four seats (never `P1..P4` beside seats `N E S W`), `P1..Pn`
    /// otherwise; partnerships keep theirs.
    #[test]
    fn a_solo_players_side_is_named_as_his_seat() {
        let four = Table::solo(4);
        let names = |t: Table| t.sides().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(four), ["N", "E", "S", "W"]);
        for seat in four.seats() {
            assert_eq!(four.side(seat).to_string(), seat.to_string());
            assert_eq!(four.members(four.side(seat)).collect::<Vec<_>>(), [seat]);
            assert_eq!(seat.to_string().parse::<Side>(), Ok(four.side(seat)));
        }
        // `P1` is the seat N at four, but the side P1 is no side of this table.
        assert!(four.sides().all(|s| s != "P1".parse().unwrap()));
        assert_eq!(names(Table::solo(3)), ["P1", "P2", "P3"]);
        assert_eq!(names(Table::solo(2)), ["P1", "P2"]);
        assert_eq!(names(Table::FOUR), ["NS", "EW"]);
        let scores: PerSide<i32> = serde_json::from_str(r#"{"W": 7, "N": -3}"#).unwrap();
        assert_eq!(scores[four.side(Seat::W)], 7);
        assert_eq!(
            serde_json::to_string(&scores.restrict(four.sides()).unwrap()).unwrap(),
            r#"{"N":-3,"E":0,"S":0,"W":7}"#
        );
        let shape = serde_json::to_value(four).unwrap();
        assert_eq!(
            shape["sides"],
            serde_json::json!({"N": ["N"], "E": ["E"], "S": ["S"], "W": ["W"]})
        );
        assert!("X".parse::<Side>().is_err());
    }

    /// Seats that leave: skipped both ways round, no longer named by `resolve`, their sides kept.
    #[test]
    fn a_table_without_seats_that_left() {
        let seat = |s: &str| s.parse::<Seat>().unwrap();
        let t = Table::solo(5).shrinking().without([seat("P2"), seat("P3")]);
        assert_eq!(t.players(), 3);
        assert_eq!(t.left(seat("P1")), seat("P4"));
        assert_eq!(t.right(seat("P4")), seat("P1"));
        assert_eq!(t.counterclockwise().next(seat("P4")), seat("P1"));
        assert_eq!(t.resolve(seat("P3")), None);
        assert_eq!(t.seats().count(), 3);
        assert_eq!(t.sides().count(), 5);
        assert_eq!(t.names(), "P1, P4, P5 (P2, P3 out)");
        let four = Table::solo(4).shrinking().without([Seat::S]);
        assert_eq!(four.left(Seat::E), Seat::W);
        assert_eq!(four.resolve("P3".parse().unwrap()), None);
    }
}
