"""tools/campaign.py: a cell's chunks add up to one row, a stopped campaign does not play a cell twice."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("campaign_tool", ROOT / "tools" / "campaign.py")
campaign = importlib.util.module_from_spec(spec)
sys.modules["campaign_tool"] = campaign
spec.loader.exec_module(campaign)


def test_a_pair_names_two_players_and_a_single_name_plays_itself():
    assert campaign.split_pair("tactical:hard:tactical") == ("tactical:hard", "tactical")
    assert campaign.split_pair("tactical:random") == ("tactical", "random")
    assert campaign.split_pair("greedy") == ("greedy", "greedy")


def test_the_chunks_of_a_cell_make_one_row_and_a_done_cell_is_not_played_again(tmp_path, monkeypatch):
    out = tmp_path / "ai.jsonl"
    argv = ["campaign", "--out", str(out), "--games", "4", "--chunk", "2", "--jobs", "1",
            "--rules", "voyageurs_aerial", "--pairs", "tactical:random"]
    monkeypatch.setattr(sys, "argv", argv)
    assert campaign.main() == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert (row["rules"], row["map"], row["a"], row["b"], row["games"]) == ("voyageurs_aerial", "sky_deck", "tactical",
                                                                          "random", 4)
    assert sum(row["wins"].values()) + row["draws"] == 4
    assert campaign.main() == 0
    assert len(out.read_text().splitlines()) == 1


def test_a_cell_played_further_on_other_seeds_is_summed_and_rows_sharing_a_seed_are_refused(tmp_path, monkeypatch,
                                                                                           capsys):
    out = tmp_path / "ai.jsonl"
    for seed in ("1", "2"):
        monkeypatch.setattr(sys, "argv", ["campaign", "--out", str(out), "--games", "2", "--chunk", "2", "--jobs", "1",
                                          "--seed", seed, "--rules", "voyageurs_aerial", "--pairs", "tactical:random"])
        assert campaign.main() == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seeds"] for r in rows] == [[1, 1], [2, 2]]
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["campaign", "--out", str(out), "--standing"])
    assert campaign.main() == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 3
    cells = [c.strip() for c in table[2].split("|")]
    wins = sum(r["wins"].get("tactical", 0) for r in rows)
    assert cells[1:6] == ["voyageurs_aerial", "sky_deck", "normal vs random", "4", cells[5]]
    assert cells[5].startswith(f"{100 * wins / 4:.1f} (")
    with out.open("a") as f:
        f.write(json.dumps(rows[0]) + "\n")
    assert campaign.main() == 2
    assert "cannot be summed" in capsys.readouterr().err
