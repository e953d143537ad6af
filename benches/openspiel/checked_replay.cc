// Checked-replay yardstick for OpenSpiel C++ games (oh_hell, bridge).
//
// Pass 1 ("generate"): N full games from NewInitialState(). At a chance node a
//   chance outcome is sampled from ChanceOutcomes() (by its probability; all
//   chance outcomes in these two games are uniform). At a player node
//   LegalActions() is called, one action picked uniformly, checked with
//   std::find against that LegalActions() vector, then ApplyAction. Every
//   applied action (chance and player) is recorded into a flat int16 buffer.
// Pass 2 ("checked replay", main figure): for each recorded game,
//   NewInitialState(), then for every recorded action (chance actions
//   included): LegalActions(), std::find check, ApplyAction. The final state
//   must be terminal.
//
// Usage: checked_replay [N] [seed]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "open_spiel/games/bridge.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_utils.h"

namespace os = open_spiel;
using Clock = std::chrono::steady_clock;

struct Recorded {
  std::vector<int16_t> actions;   // flat
  std::vector<uint32_t> offsets;  // game g = [offsets[g], offsets[g+1])
};

struct GenResult {
  double seconds = 0;
  long long total_actions = 0;
  long long player_actions = 0;
  long long reached_play = 0;  // bridge only: games that entered play phase
  double checksum = 0;
};

static void Fail(const char* what, long long g, long long a) {
  std::fprintf(stderr, "FATAL: %s (game %lld, action %lld)\n", what, g, a);
  std::exit(2);
}

GenResult Generate(const os::Game& game, int n, uint32_t seed, Recorded* rec,
                   bool is_bridge) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unif01(0.0, 1.0);
  GenResult r;
  rec->actions.clear();
  rec->offsets.clear();
  rec->actions.reserve(static_cast<size_t>(n) * (game.MaxGameLength() + 64));
  rec->offsets.reserve(n + 1);
  rec->offsets.push_back(0);
  const auto t0 = Clock::now();
  for (int g = 0; g < n; ++g) {
    std::unique_ptr<os::State> state = game.NewInitialState();
    bool play = false;
    while (!state->IsTerminal()) {
      os::Action a;
      if (state->IsChanceNode()) {
        const auto outcomes = state->ChanceOutcomes();
        const double u = unif01(rng);
        double cum = 0;
        a = outcomes.back().first;
        for (const auto& o : outcomes) {
          cum += o.second;
          if (u < cum) { a = o.first; break; }
        }
      } else {
        if (is_bridge && !play &&
            static_cast<const os::bridge::BridgeState&>(*state)
                    .CurrentPhase() == 2 /*kPlay*/) {
          play = true;
        }
        const std::vector<os::Action> legal = state->LegalActions();
        std::uniform_int_distribution<int> pick(0, legal.size() - 1);
        a = legal[pick(rng)];
        if (std::find(legal.begin(), legal.end(), a) == legal.end())
          Fail("picked action not legal", g, a);
        ++r.player_actions;
      }
      state->ApplyAction(a);
      rec->actions.push_back(static_cast<int16_t>(a));
    }
    if (play) ++r.reached_play;
    r.checksum += state->Returns()[0];
    rec->offsets.push_back(rec->actions.size());
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.total_actions = rec->actions.size();
  return r;
}

struct ReplayResult {
  double seconds = 0;
  long long actions = 0;
  double checksum = 0;
};

ReplayResult Replay(const os::Game& game, const Recorded& rec) {
  ReplayResult r;
  const int n = rec.offsets.size() - 1;
  const auto t0 = Clock::now();
  for (int g = 0; g < n; ++g) {
    std::unique_ptr<os::State> state = game.NewInitialState();
    for (uint32_t i = rec.offsets[g]; i < rec.offsets[g + 1]; ++i) {
      const os::Action a = rec.actions[i];
      const std::vector<os::Action> legal = state->LegalActions();
      if (std::find(legal.begin(), legal.end(), a) == legal.end())
        Fail("recorded action not in LegalActions()", g, i);
      state->ApplyAction(a);
    }
    if (!state->IsTerminal()) Fail("replayed game not terminal", g, 0);
    r.checksum += state->Returns()[0];
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.actions = rec.actions.size();
  return r;
}

void RunOne(const char* label, const std::shared_ptr<const os::Game>& game,
            int n, uint32_t seed, bool is_bridge) {
  Recorded rec;
  GenResult gen = Generate(*game, n, seed, &rec, is_bridge);
  ReplayResult rep = Replay(*game, rec);
  if (gen.checksum != rep.checksum) Fail("checksum mismatch gen/replay", 0, 0);
  long long reached_play_len = 0;  // cross-check for bridge via length
  if (is_bridge) {
    for (int g = 0; g < n; ++g)
      if (rec.offsets[g + 1] - rec.offsets[g] > 52 + 4) ++reached_play_len;
  }
  std::printf(
      "RESULT game=%s n=%d seed=%u gen_us_per_game=%.3f "
      "replay_us_per_game=%.3f total_actions=%lld player_actions=%lld "
      "avg_actions_per_game=%.2f gen_ns_per_action=%.2f "
      "replay_ns_per_action=%.2f",
      label, n, seed, 1e6 * gen.seconds / n, 1e6 * rep.seconds / n,
      gen.total_actions, gen.player_actions,
      static_cast<double>(gen.total_actions) / n,
      1e9 * gen.seconds / gen.total_actions,
      1e9 * rep.seconds / rep.actions);
  if (is_bridge)
    std::printf(" reached_play=%lld reached_play_by_length=%lld",
                gen.reached_play, reached_play_len);
  std::printf(" sum_returns_p0=%.1f\n", gen.checksum);
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  const uint32_t seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 12345u;

  auto oh_hell = os::LoadGame(
      "oh_hell", {{"players", os::GameParameter(4)},
                  {"num_tricks_fixed", os::GameParameter(10)}});
  auto bridge = os::LoadGame(
      "bridge", {{"use_double_dummy_result", os::GameParameter(false)}});
  std::printf("# oh_hell: %s\n# bridge: %s\n", oh_hell->ToString().c_str(),
              bridge->ToString().c_str());

  RunOne("oh_hell_4p_10t", oh_hell, n, seed, false);
  RunOne("bridge_play", bridge, n, seed, true);
  return 0;
}
