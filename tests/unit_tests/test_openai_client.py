"""`OpenAIChat`'s clients at high concurrency (the run's batch shape)."""

from __future__ import annotations

from anonygraph.llm.backends.openai_chat import _SHARD, _Shards


def test_when_waves_of_requests_follow_each_other_then_they_reuse_the_clients() -> None:
    shards = _Shards()

    for _ in range(2):
        taken = [shards.take() for _ in range(3 * _SHARD)]
        assert shards.busy == [_SHARD] * 3
        for index in taken:
            shards.busy[index] -= 1

    assert len(shards.clients) == 3
    pools = {id(c._transport._pool) for c in shards.clients}
    assert len(pools) == 3
    pool = shards.clients[0]._transport._pool
    assert pool._max_keepalive_connections == _SHARD


def test_when_few_requests_are_in_flight_then_one_client_carries_them() -> None:
    shards = _Shards()

    first, second = shards.take(), shards.take()
    shards.busy[first] -= 1
    third = shards.take()

    assert (first, second, third) == (0, 0, 0) and len(shards.clients) == 1
