"""The JSON of ``symattn derive --format json`` is byte for byte what it was before the
engine moved to ball arithmetic and batched printing (issue 15): sha256 sums of the
output of the code before that change, for fixed problems (multi-head with W_O and a
causal mask, surds, decimals, a scale of 2 and of 1/2) and for the benchmark's random
problems at n = 8, 16, 32 (seed 0)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import symattn
from symattn.render import render

CASES = [
    ('rand1_half', '{"X":[[-2,"-3/2",3,-2],[-1,-2,-3,"5/2"],[0,-2,3,-2],[3,"3/2","5/2",3],[0,1,"5/2",1],["1/2","-1/2","-3/2","-3/2"]],"W_Q":[[1,-2,"1/2",3],[3,-1,0,"1/2"],[-2,-2,"-1/2","-3/2"],["5/2",-2,1,-1]],"W_K":[["5/2",-2,1,"-3/2"],[-2,-1,"3/2",2],[-3,"1/2","3/2",-3],[-3,"5/2",-1,2]],"W_V":[[-1,-1,0,-1,-2,-3],[2,-3,"3/2",3,-2,"-3/2"],[2,0,"-1/2",3,"-3/2","-3/2"],[-2,-2,"-5/2",-3,-1,3]],"heads":2,"W_O":[["-5/2",1],["3/2",-2],[-1,"-5/2"],["-3/2",2],[1,"3/2"],["3/2",3]],"mask":"causal"}', '66eec8f073825ef622749b167e57cb56560934604279bf233eaf752763b63431', '8808a055d900b76c73d864d03d8fde5f95c146410bdc932b848614135fd2f646'),
    ('rand2_surd', '{"X":[["sqrt(6)",3,1,"-3*sqrt(6)"],["2*sqrt(6)",-2,1,"sqrt(6)"]],"W_Q":[[-3,-3,-1,1],["-3*sqrt(6)","-sqrt(3)","5/3",1],["3/7",-2,1,-2],[0,-3,-3,3]],"W_K":[["sqrt(2)","-4/3",-2,2],[2,-2,3,1],["sqrt(8)",2,0,-3],[-3,"0/4",-3,"-3*sqrt(5)"]],"W_V":[[2,-2,1,-1],["-3*sqrt(5)",-2,-1,"-3*sqrt(5)"],["1/4","7/3","1/2","-sqrt(5)"],["6/4",-3,"-1/7",2]]}', '237140472362ade58ec344a29b359aca78be8036fff31327cbaaa12d551af2b4', 'dbf947bc7eb20fe22851d34cf46d365ea352a3a597fa194d72682dd917331e19'),
    ('rand3_dec', '{"Q":[["8/3",1,-1,-2],[-2,"-0.355",1,"3/11"],[1,"0.272","-0.06","-0.97"],["0.724",-1,"-0.361","0.231"],["-0.919","0.415",1,"0.375"],["-0.719",0,2,0]],"K":[[-1,"-9/7",-1,"6/3"],[0,"-2/7","-0.8","0.094"],["0.449",-2,-1,"-0.589"],[-2,"-0.465","8/11","0.257"],[0,"-0.197","-0.752","5/11"],["-0.477","0.403","-0.875","-5/11"]],"V":[["-0.45","-0.477",-2],["0.437",-1,-2],[-1,"-0.705","0.187"],["-4/3",2,"0.68"],["0.532","-0.68","0.653"],[-1,0,0]],"scale":"2"}', '8a4eecd321e22295e591d72c9f1af8ba7c5060b85cf568fcdb47b53ee1763d0f', '1746351e16685f9b00b50722b927ada547645848ee997139d5cc26c4618ae96c'),
    ('rand8_int', '{"X":[[0,1],[-1,-3],[2,-3],[-3,-3],[1,-3],[1,3]],"W_Q":[[-3,3,1,-1,-1,0,0,-1],[-2,0,3,-3,1,3,1,2]],"W_K":[[-1,-1,0,0,0,1,-2,-2],[0,3,1,-3,2,0,-3,2]],"W_V":[[-3,1],[-3,-3]],"heads":2}', 'b3503e71e2ac4ebb24d37c21b32589480dd605bb45b05b4fd2d84a944b360f5c', '886123a2157756a93dd96a2c6d5204d1ee501639c3883301b2ab30a2949c07ab'),
    ('rand26_surd', '{"X":[[3,-2],[-1,"7/4"],[-3,-1],[2,-1],["2*sqrt(12)","2*sqrt(12)"],[3,2]],"W_Q":[["-7/7","-4/7"],[-2,0]],"W_K":[[-3,-1],[-2,"sqrt(8)"]],"W_V":[[1,0,"-sqrt(5)",2],["-1/3","-sqrt(2)","sqrt(6)","2*sqrt(12)"]]}', 'b8a9a32dc052ed4534f3ac8d9c59a1e0aecde3b273125a587f9acd8499d7de1c', '973562c98dc3aec2596bcb34a84ac38ecf9ac02bf09acaeed967851045304175'),
    ('rand35_dec', '{"X":[[-2,2,1],["-4/11","3/7",-2],[0,-1,"-4/11"],["-8/11","-0.119","-0.792"],[-2,"0.744",2]],"W_Q":[["-0.884","-2/11","0.032"],[2,"-0.22","0.102"],["4/7","-0.728","0.92"]],"W_K":[["0.578",0,"-0.048"],["-0.87",-1,"-8/11"],[1,-1,-1]],"W_V":[[-1,"-0.937","0.882"],[2,"-4/11","0.397"],["-0.461","-0.904",0]],"scale":"1/2"}', '1a2cb2d75764eca9478eb14eb31149b25d33a9dae4d1cd16f23b8e96eab7a757', 'f918088c0e9fd4cf53b80d4bc112be126426f53c63ed8dc469c1da490b69fcdb'),
    ('surd_n8', '{"X":[["-5/7",-3,-3,-3,-2,"-3*sqrt(6)","sqrt(8)",3],[-2,1,1,-3,-3,-2,"-5/2",1],[-2,"-sqrt(5)","sqrt(8)","-sqrt(6)",0,0,0,-2],[2,-3,1,-1,-1,-3,"-3*sqrt(3)",-2],[0,"sqrt(8)",3,"4/4",1,-3,-1,2],["2*sqrt(12)",2,-1,2,"0/4","sqrt(6)","2*sqrt(3)",0],[3,-2,1,"-5/7",-1,-1,0,-2],["-sqrt(3)",-3,1,"2*sqrt(2)","2*sqrt(8)",-2,1,2]],"W_Q":[[-3,3,3,1,0,0,-3,"-sqrt(6)"],["2*sqrt(8)","sqrt(8)","sqrt(5)",-3,1,2,"-2/4",-3],[0,-1,"sqrt(12)","-3/7",-2,-2,1,2],[-3,-1,3,"2*sqrt(8)",-2,-2,3,2],["5/3",3,3,"1/7",-3,3,"-3/3",-1],[2,-1,"sqrt(3)",-1,"2/2",2,"3/2",-3],[3,-2,-2,2,"5/7",2,2,"-sqrt(2)"],["-3*sqrt(12)","-3*sqrt(12)",-2,-2,"sqrt(8)",-2,3,"-sqrt(2)"]],"W_K":[["-3/3",-1,"-1/3","2*sqrt(6)",3,0,1,"-sqrt(8)"],[3,-2,3,-2,"sqrt(8)","-3*sqrt(2)",-3,"-3/2"],[1,-3,-3,1,1,2,"1/7",-2],[-1,-2,-2,0,-3,0,"2*sqrt(2)",-2],[2,-2,"-5/7","-6/7",-2,3,"4/7",0],["-4/4","4/4","-3*sqrt(6)",0,"2/4",-3,"-sqrt(2)","2*sqrt(2)"],[-2,"-5/7",2,-1,1,1,-1,"sqrt(12)"],["sqrt(5)",2,"2*sqrt(2)",-2,"sqrt(6)","-3*sqrt(5)",-3,-2]],"W_V":[[-2,"-5/3",2,"5/3","1/3","5/2",-3,"-sqrt(8)"],[0,"-3*sqrt(12)",3,1,"-4/3","6/3",-1,3],["sqrt(12)",-1,-3,"-3*sqrt(8)",-1,2,"0/3","-3*sqrt(2)"],["-2/4","7/4","-5/2","-6/7","3/3","5/2","sqrt(3)",-3],[-1,"-4/2",1,-2,2,1,-1,0],["-sqrt(2)",2,2,2,-2,3,3,-3],[1,2,2,-3,"-sqrt(12)",-3,0,2],["-sqrt(6)","0/2",1,-3,-3,0,"-6/4","5/3"]]}', '35c955a4f9202a12dc263c899897ceb5974c6bde79b8628915c847e7382c1eec', '405400b9d862b721681086aa34b872d159b7fd135177886c659427f04fc4db0a'),
]

BENCH = [
    (8, '1155ecf8e6ed643f5230865b535553fad9896d2598c33456cb7ea3473217ef84'),
    (16, 'eb20ce566cd8e5ca6ac6876ad91df9bd7a01c4b7956f15bd1ccc6c80d326a3e2'),
    (32, 'eafc6969417ed436aea8415c5855edfba227381a827ca29656aa91fbfcb86a2f'),
]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _json(problem: dict[str, object], digits: int = 4) -> str:
    return render(symattn.derive(symattn.load(problem), digits=digits), "json", digits=digits)


@pytest.mark.parametrize(("name", "problem", "sha4", "sha6"), CASES, ids=[c[0] for c in CASES])
def test_json_is_byte_identical_to_before(name: str, problem: str, sha4: str, sha6: str) -> None:
    data = json.loads(problem)
    assert _sha(_json(data)) == sha4
    assert _sha(_json(data, digits=6)) == sha6


def _bench_problem(size: int, seed: int) -> dict[str, object]:
    """The matrices of benchmarks/bench_exact.py (integers in -3..3 and halves)."""
    rng = random.Random(seed)

    def matrix() -> list[list[object]]:
        rows: list[list[object]] = []
        for _ in range(size):
            row: list[object] = []
            for _ in range(size):
                if rng.random() < 0.3:
                    row.append(f"{rng.choice((-5, -3, -1, 1, 3, 5))}/2")
                else:
                    row.append(rng.randint(-3, 3))
            rows.append(row)
        return rows

    return {name: matrix() for name in ("X", "W_Q", "W_K", "W_V")}


@pytest.mark.parametrize(("size", "sha"), BENCH, ids=[f"n{b[0]}" for b in BENCH])
def test_benchmark_json_is_byte_identical_to_before(size: int, sha: str) -> None:
    assert _sha(_json(_bench_problem(size, 0))) == sha
