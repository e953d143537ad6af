//! `arbiter`: the service (`serve`, the default), offline adjudication for directors, and the spec.

use arbiter::api::problem::Problem;
use arbiter::api::{self, league::LeagueState, problem};
use arbiter::engine;
use arbiter::league::{self, Store, Tx};
use arbiter::pbn;
use arbiter::record::{HandRecord, MatchRecord};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(version, about = "Adjudicates recorded card-game hands")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the HTTP service (the default command).
    Serve(ServeArgs),
    /// Prints the adjudication of a recorded hand (or a match: an object with `hands`) as JSON.
    Adjudicate {
        /// A JSON file holding a hand record with its `game`, or a match record with its `game`;
        /// or a PBN text naming its game (`docs/pbn.md`): a file whose first character, after
        /// white space, is not `{`.
        file: PathBuf,
    },
    /// Converts a hand record between JSON and PBN (`docs/pbn.md`).
    #[command(subcommand)]
    Pbn(PbnCommand),
    /// Prints the OpenAPI document.
    Openapi,
    /// Manages clubs in the league database.
    #[command(subcommand)]
    Club(ClubCommand),
    /// Manages a club's API keys in the league database.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Copies a league database, an SQLite file, into an empty PostgreSQL database: every row,
    /// ids included, so that a club that grows into a federation keeps its history.
    Copy {
        /// The SQLite file to copy (brought up to date first, as `serve` would).
        #[arg(long)]
        from: PathBuf,
        /// The PostgreSQL database to copy into (`postgres://user:password@host/db`), holding no
        /// club yet; its schema is created if absent.
        #[arg(long)]
        to: String,
    },
}

#[derive(Subcommand)]
enum PbnCommand {
    /// Prints a PBN text's hand record as JSON.
    ToJson {
        /// A PBN text naming its game (`[ArbiterGame "..."]`).
        file: PathBuf,
    },
    /// Prints a JSON hand record (naming its `game`) as a PBN text that reads back into it.
    ToPbn {
        /// A JSON file holding a hand record with its `game`.
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum KeyCommand {
    /// Issues a new API key for an existing club and prints its id and secret (shown once): the
    /// way back for a club that lost its keys.
    Create {
        /// The club's id.
        #[arg(long)]
        club: i64,
        /// What the key is for (shown when keys are listed).
        #[arg(long, default_value = "issued by the operator")]
        label: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum ClubCommand {
    /// Creates a club and prints its id and its first API key (shown once; only a digest is kept).
    Create {
        /// The club's name.
        #[arg(long)]
        name: String,
        /// Who may read the club: `public_results` (its results public, its records for its keys)
        /// or `members_only` (every read needs one of its keys).
        #[arg(long, value_enum, default_value_t = Visibility::PublicResults)]
        visibility: Visibility,
        #[command(flatten)]
        db: DbArg,
    },
}

/// `league::Visibility` on the command line.
#[derive(Clone, Copy, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
enum Visibility {
    PublicResults,
    MembersOnly,
}

impl From<Visibility> for league::Visibility {
    fn from(v: Visibility) -> league::Visibility {
        match v {
            Visibility::PublicResults => league::Visibility::PublicResults,
            Visibility::MembersOnly => league::Visibility::MembersOnly,
        }
    }
}

#[derive(Args)]
struct DbArg {
    /// The league database: an SQLite file, created if absent, or a PostgreSQL database
    /// (`postgres://user:password@host/db`), whose schema is created if absent.
    #[arg(long = "db", env = "ARBITER_DB", default_value = "arbiter.db")]
    path: PathBuf,
}

#[derive(Parser)]
struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    /// A token that may create clubs over HTTP (`POST /v1/clubs`); unset, only the CLI can.
    #[arg(long, env = "ARBITER_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Address to listen on.
    #[arg(long, env = "ARBITER_HOST", default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on.
    #[arg(long, env = "ARBITER_PORT", default_value_t = 8080)]
    port: u16,
    /// Seconds a client may take to send a request body (408 beyond).
    #[arg(long, env = "ARBITER_BODY_TIMEOUT", default_value_t = problem::BODY_TIMEOUT.as_secs())]
    body_timeout: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Serve(args)) => serve(args),
        None => serve(ServeArgs::parse_from(["serve"])),
        Some(Command::Adjudicate { file }) => print_or_fail(&file, adjudicate_bytes),
        Some(Command::Pbn(PbnCommand::ToJson { file })) => print_or_fail(&file, pbn_to_json),
        Some(Command::Pbn(PbnCommand::ToPbn { file })) => print_or_fail(&file, json_to_pbn),
        Some(Command::Openapi) => {
            print!("{}", api::openapi_json());
            ExitCode::SUCCESS
        }
        Some(Command::Club(ClubCommand::Create {
            name,
            visibility,
            db,
        })) => create_club(&db.path, &name, visibility.into()),
        Some(Command::Key(KeyCommand::Create { club, label, db })) => {
            create_key(&db.path, club, &label)
        }
        Some(Command::Copy { from, to }) => copy(&from, &to),
    }
}

fn copy(from: &Path, to: &str) -> ExitCode {
    if !from.is_file() {
        eprintln!("arbiter: --from: no SQLite file at {}", from.display());
        return ExitCode::FAILURE;
    }
    if !league::is_postgres_url(to) {
        eprintln!("arbiter: --to: a PostgreSQL URL (postgres://user:password@host/db)");
        return ExitCode::FAILURE;
    }
    let (Some(source), Some(target)) = (open(from), open(Path::new(to))) else {
        return ExitCode::FAILURE;
    };
    match source.copy_into(&target) {
        Ok(copied) => {
            for (table, rows) in &copied {
                println!("{table}: {rows}");
            }
            let total: u64 = copied.iter().map(|(_, rows)| rows).sum();
            println!(
                "copied {total} rows from {} into PostgreSQL",
                from.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arbiter: nothing was copied: {e:?}");
            ExitCode::FAILURE
        }
    }
}

fn open(path: &Path) -> Option<Store> {
    match Store::connect(&path.to_string_lossy()) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("arbiter: cannot open the league database: {e:?}");
            None
        }
    }
}

/// Refuses, saying why, a name the API would refuse (`league::name_ok`).
fn refused_name(flag: &str, name: &str) -> bool {
    let Err(e) = league::name_ok(name) else {
        return false;
    };
    let why = e.message.unwrap_or_default();
    eprintln!("arbiter: {flag}: {why}");
    true
}

fn create_club(path: &Path, name: &str, visibility: league::Visibility) -> ExitCode {
    if refused_name("--name", name.trim()) {
        return ExitCode::FAILURE;
    }
    write(
        path,
        |tx| league::create_club(tx, name, visibility),
        |(club, key)| {
            println!("club {} ({})", club.id, club.name);
            println!("visibility: {}", club.visibility.as_str());
            print_key(key);
        },
    )
}

fn create_key(path: &Path, club: i64, label: &str) -> ExitCode {
    if refused_name("--label", label.trim()) {
        return ExitCode::FAILURE;
    }
    write(
        path,
        |tx| league::create_key(tx, club, label),
        |key| {
            println!("club {club}");
            print_key(key);
        },
    )
}

/// The key's id, then its secret on the line scripts read (`API key ...: <secret>`).
fn print_key(key: &league::ApiKey) {
    println!("key id: {} ({})", key.id, key.label);
    if let Some(secret) = &key.secret {
        println!("API key (shown once, keep it safe): {secret}");
    }
}

/// Runs one write on the database at `path` and prints what it made.
fn write<T>(
    path: &Path,
    f: impl FnOnce(&Tx) -> league::Result<T>,
    print: impl FnOnce(&T),
) -> ExitCode {
    let Some(store) = open(path) else {
        return ExitCode::FAILURE;
    };
    match store.write(f) {
        Ok(made) => {
            print(&made);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arbiter: {e:?}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    tune_allocator();
    let Some(store) = open(&args.db.path) else {
        return ExitCode::FAILURE;
    };
    let described = store.describe();
    let state = LeagueState::new(store, args.admin_token.filter(|t| !t.is_empty()));
    let run = actix_web::rt::System::new().block_on(async move {
        eprintln!(
            "arbiter listening on http://{}:{} (Swagger UI at /swagger-ui/), league database {}",
            args.host, args.port, described
        );
        let body_timeout = problem::BodyTimeout(Duration::from_secs(args.body_timeout));
        let (server, _) = api::server(state, body_timeout, (args.host.as_str(), args.port))?;
        server.await
    });
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Two settings of glibc's allocator, so that the server's resident memory stays near what it
/// uses (issue 26, target 7):
/// - A freed buffer of 128 KiB or more goes back to the system at once. By default the threshold
///   rises to the largest buffer freed so far (up to 32 MiB), after which such buffers (sheet
///   pages, hand pages, decompressed rulings) stay in the allocator: under `benches/memory.sh`'s
///   mixed load on a league of 1,000,000 hands the server's peak was 66.9 MB, and 32.1 MB with the
///   threshold fixed (before that load imported sheets too; with imports it peaks at 48.4 MB).
/// - One arena per core, not glibc's eight. Each arena keeps the small blocks freed in it, and the
///   blocking threads that prepare imports, read standings and write sheets each took an arena of
///   their own: the mixed load with imports on a league of 20,000 hands peaked at 58–61 MB, and at
///   49 MB with an arena per core. Threads beyond the cores share arenas; each thread's cache of
///   small blocks still serves most requests without the arena's lock.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // SAFETY: mallopt only sets a parameter of the allocator, under the allocator's own lock,
        // and runs before the server starts its threads.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
            libc::mallopt(libc::M_ARENA_MAX, cores.min(64) as libc::c_int);
        }
    }
}

/// Prints what `f` makes of `file`'s bytes (offline, for directors: the same engine and the same
/// errors as the service, printed), or its error.
fn print_or_fail(file: &Path, f: fn(&[u8]) -> Result<String, String>) -> ExitCode {
    let result = std::fs::read(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))
        .and_then(|bytes| f(&bytes));
    match result {
        Ok(out) => {
            println!("{}", out.trim_end());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// A problem as the CLI prints it.
fn pretty(problem: &api::problem::Problem) -> String {
    serde_json::to_string_pretty(problem).expect("a problem serializes")
}

/// Whether a file is JSON: its first character after white space (and a byte order mark) is `{`.
fn is_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

fn pbn_to_json(bytes: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("the text is not UTF-8: {e}"))?;
    let read = pbn::read(text, None).map_err(|r| {
        let problem = api::problem::Problem::invalid(r.errors().to_vec());
        pretty(&problem)
    })?;
    Ok(serde_json::to_string_pretty(&read.record).expect("a record serializes"))
}

fn json_to_pbn(bytes: &[u8]) -> Result<String, String> {
    let (game, record) = json_record(bytes)?;
    pbn::write(game, &record).map_err(|e| pretty(&api::record_problem(game, Problem::invalid(e))))
}

/// A JSON record (of a hand or a match) and the game it names.
fn named_game(bytes: &[u8]) -> Result<(&'static dyn engine::Game, serde_json::Value), String> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let id = value
        .get("game")
        .and_then(|g| g.as_str())
        .ok_or("the record must name its \"game\"")?;
    let game = arbiter::games::find(id).ok_or_else(|| format!("unknown game '{id}'"))?;
    Ok((game, value))
}

/// A JSON hand record and the game it names.
fn json_record(bytes: &[u8]) -> Result<(&'static dyn engine::Game, HandRecord), String> {
    let (game, _) = named_game(bytes)?;
    let record =
        api::problem::parse_json(bytes).map_err(|p| pretty(&api::record_problem(game, p)))?;
    Ok((game, record))
}

fn adjudicate_bytes(bytes: &[u8]) -> Result<String, String> {
    if !is_json(bytes) {
        let a = api::adjudicate_pbn(None, bytes).map_err(|p| pretty(&p))?;
        return Ok(serde_json::to_string_pretty(&a).expect("an adjudication serializes"));
    }
    let (game, value) = named_game(bytes)?;
    let problem = |p| pretty(&api::record_problem(game, p));
    let refused = |errors| problem(api::problem::Problem::invalid(errors));
    let out = if value.get("hands").is_some() {
        let m: MatchRecord = api::problem::parse_json(bytes).map_err(problem)?;
        serde_json::to_string_pretty(&engine::adjudicate_match(game, &m).map_err(refused)?)
    } else {
        let h = api::hand_record(game, bytes).map_err(problem)?;
        serde_json::to_string_pretty(&h.adjudicate().map_err(refused)?)
    };
    Ok(out.expect("an adjudication serializes"))
}
