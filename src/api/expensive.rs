//! Expensive work apart from cheap reads. A standings computation, a sheet export, an import or a
//! readjudication runs on the pool for expensive work: at most `jobs` at once (on blocking threads
//! and reader connections of their own), at most `queue` more waiting for a turn, and past that a
//! request is answered at once with 503 and `Retry-After`. Cheap reads (a row, a page) never wait
//! behind it. Work still waiting when its client goes away (actix drops the handler's future) is
//! never started.
//!
//! Standings are computed once per generation of their league (it moves with every write the
//! standings read, see `league::generation`) and kept until it moves; concurrent requests for the
//! same generation wait for one computation.

use super::problem::Problem;
use crate::league::{self, Standings};
use actix_web::http::StatusCode;
use actix_web::web;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// The seconds a refused request is told to wait (`Retry-After`).
const RETRY_AFTER: &str = "2";

/// The pool for expensive work.
pub struct Expensive {
    turns: Arc<Semaphore>,
    /// Jobs running or waiting for a turn.
    admitted: Arc<AtomicUsize>,
    /// At most this many admitted at once: the jobs and their queue.
    limit: usize,
}

/// A job admitted to the pool, waiting for its turn.
pub struct Ticket {
    turns: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
}

/// A job's turn: while it is held, the job runs. Moved into the blocking call that does the work,
/// so that it is held exactly as long as the work runs, whoever waits for it.
pub struct Turn {
    _ticket: Ticket,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Ticket {
    /// Waits for a turn. Dropping the future (the client has gone) gives up the place in the queue.
    pub async fn turn(self) -> Turn {
        let permit = self
            .turns
            .clone()
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        Turn {
            _ticket: self,
            _permit: permit,
        }
    }
}

impl Expensive {
    /// A pool running `jobs` at once (1 to `league::EXPENSIVE_READERS`, the connections kept for
    /// it) with `queue` more waiting.
    pub fn new(jobs: usize, queue: usize) -> Expensive {
        let jobs = jobs.clamp(1, league::EXPENSIVE_READERS as usize);
        Expensive {
            turns: Arc::new(Semaphore::new(jobs)),
            admitted: Arc::new(AtomicUsize::new(0)),
            limit: jobs + queue,
        }
    }

    /// A place for one job, or 503 when the jobs and the queue are full.
    pub fn admit(&self) -> Result<Ticket, Problem> {
        self.admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.limit).then_some(n + 1)
            })
            .map_err(|_| self.busy())?;
        Ok(Ticket {
            turns: self.turns.clone(),
            admitted: self.admitted.clone(),
        })
    }

    fn busy(&self) -> Problem {
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "Too much expensive work waiting",
            format!(
                "{} expensive requests (standings to compute, sheet exports, imports, \
                 readjudications) are running or waiting; nothing was done: retry after \
                 {RETRY_AFTER} seconds",
                self.limit
            ),
        )
        .with_headers(&[("retry-after", RETRY_AFTER)])
    }

    /// Runs `f` on a blocking thread when its turn comes; 503 at once when the queue is full. If
    /// the caller is dropped before `f` starts (its client has gone), `f` never runs.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let turn = self.admit()?.turn().await;
        let here = Arc::new(());
        let gone = Arc::downgrade(&here);
        web::block(move || {
            let _turn = turn;
            // Between the turn and a thread, the client may still go.
            if gone.strong_count() == 0 {
                return Err(Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "gone",
                    "The client has gone",
                    "not started: nobody waits for it".into(),
                ));
            }
            f()
        })
        .await
        .map_err(|e| league::StoreError::Database(e.to_string()))?
    }
}

/// A computation's answer, as every request waiting for it gets it.
type Answer = Result<(i64, Arc<Standings>), Problem>;

/// One computation of a league's standings at a generation: the requests waiting for it hold
/// receivers; the computation holds the sender, and is dropped unstarted when no receiver is left.
type Flight = watch::Sender<Option<Answer>>;

/// Standings kept by (club, league), each at the generation it was computed at, the most recently
/// used `capacity` leagues at most.
pub struct StandingsCache {
    slots: Mutex<Slots>,
    capacity: usize,
    /// How many computations have run (tests observe it).
    computed: AtomicU64,
}

#[derive(Default)]
struct Slots {
    by_league: HashMap<(i64, i64), Slot>,
    /// A clock for least-recent use.
    tick: u64,
}

#[derive(Default)]
struct Slot {
    ready: Option<(i64, Arc<Standings>)>,
    flight: Option<(i64, Weak<Flight>)>,
    used: u64,
}

impl Slots {
    fn slot(&mut self, key: (i64, i64), capacity: usize) -> &mut Slot {
        self.tick += 1;
        if !self.by_league.contains_key(&key) && self.by_league.len() >= capacity {
            let oldest = self.by_league.iter().min_by_key(|(_, s)| s.used);
            if let Some(&oldest) = oldest.map(|(k, _)| k) {
                self.by_league.remove(&oldest);
            }
        }
        let slot = self.by_league.entry(key).or_default();
        slot.used = self.tick;
        slot
    }
}

impl StandingsCache {
    pub fn new(capacity: usize) -> StandingsCache {
        StandingsCache {
            slots: Mutex::default(),
            capacity: capacity.max(1),
            computed: AtomicU64::new(0),
        }
    }

    /// How many standings computations have run.
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Acquire)
    }

    fn slots(&self) -> MutexGuard<'_, Slots> {
        // Nothing in a slot is left half-changed by a panic.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The standings of `league` of `club` at `generation` or later: kept ones, those of a
    /// computation already under way, or (on the pool for expensive work) a new computation by
    /// `compute`, which answers the generation it read with the standings.
    pub async fn get(
        self: &Arc<Self>,
        (club, league): (i64, i64),
        generation: i64,
        pool: &Expensive,
        compute: impl Fn() -> league::Result<(i64, Standings)> + Clone + Send + 'static,
    ) -> Result<Arc<Standings>, Problem> {
        let key = (club, league);
        // A computation whose every waiter left just as this request joined it ends unanswered:
        // this request then starts its own.
        for _ in 0..3 {
            let mut answer = {
                let mut slots = self.slots();
                let slot = slots.slot(key, self.capacity);
                if let Some((g, s)) = &slot.ready
                    && *g >= generation
                {
                    return Ok(s.clone());
                }
                let under_way = slot.flight.as_ref().filter(|(g, _)| *g >= generation);
                match under_way.and_then(|(_, f)| f.upgrade()) {
                    Some(flight) => flight.subscribe(),
                    None => {
                        let ticket = pool.admit()?;
                        let (flight, answer) = watch::channel(None);
                        let flight = Arc::new(flight);
                        slot.flight = Some((generation, Arc::downgrade(&flight)));
                        actix_web::rt::spawn(self.clone().fly(
                            key,
                            ticket,
                            flight,
                            compute.clone(),
                        ));
                        answer
                    }
                }
            };
            if let Ok(a) = answer.wait_for(Option::is_some).await {
                return a.clone().expect("answered").map(|(_, s)| s);
            }
        }
        Err(pool.busy())
    }

    /// Computes once its turn comes, keeps the standings and answers every waiter; if every
    /// waiter has gone before it starts, it never does. Once started it finishes, kept for the
    /// next request.
    async fn fly(
        self: Arc<Self>,
        key: (i64, i64),
        ticket: Ticket,
        flight: Arc<Flight>,
        compute: impl FnOnce() -> league::Result<(i64, Standings)> + Send + 'static,
    ) {
        let turn = tokio::select! {
            turn = ticket.turn() => turn,
            () = flight.closed() => return,
        };
        let _ = web::block(move || {
            let _turn = turn;
            if flight.is_closed() {
                return;
            }
            self.computed.fetch_add(1, Ordering::AcqRel);
            let answer = compute()
                .map(|(g, s)| (g, Arc::new(s)))
                .map_err(Problem::from);
            if let Ok((g, s)) = &answer {
                let mut slots = self.slots();
                let slot = slots.slot(key, self.capacity);
                if slot.ready.as_ref().is_none_or(|(kept, _)| kept <= g) {
                    slot.ready = Some((*g, s.clone()));
                }
            }
            flight.send_replace(Some(answer));
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    #[actix_web::test]
    async fn past_the_jobs_and_the_queue_work_is_refused_busy() {
        let pool = Expensive::new(1, 1);
        let running = pool.admit().unwrap().turn().await;
        let waiting = pool.admit().unwrap();
        let refused = pool.admit().err().unwrap();
        assert_eq!(
            (refused.status, refused.kind.as_str()),
            (503, "urn:arbiter:problem:busy")
        );
        assert_eq!(refused.headers, &[("retry-after", "2")]);
        // A place frees when a job ends, or when a waiting one gives up.
        drop(waiting);
        let waiting = pool.admit().unwrap();
        assert!(pool.admit().is_err());
        drop(running);
        let _running = waiting.turn().await;
        assert!(pool.admit().is_ok());
    }

    #[actix_web::test]
    async fn work_whose_caller_has_gone_is_never_started() {
        let pool = Expensive::new(1, 4);
        let running = pool.admit().unwrap().turn().await;
        let ran = Arc::new(AtomicBool::new(false));
        let work = pool.run({
            let ran = ran.clone();
            move || {
                ran.store(true, Ordering::Release);
                Ok(())
            }
        });
        // The caller waits for a turn, then goes (its future is dropped).
        let gave_up = actix_web::rt::time::timeout(Duration::from_millis(50), work).await;
        assert!(gave_up.is_err());
        drop(running);
        pool.run(|| Ok(())).await.unwrap();
        assert!(!ran.load(Ordering::Acquire), "started for nobody");
        assert_eq!(pool.admitted.load(Ordering::Acquire), 0);
    }
}
