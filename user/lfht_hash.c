// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lfht_hash(): SipHash-2-4 (Aumasson & Bernstein, 2012), a keyed hash for
 * callers who have none.  With a secret random key the collisions cannot be
 * computed in advance, which is what an attacker flooding one chain needs.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/random.h>
#include <lfht/rculfhash.h>

static inline uint64_t rotl(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

struct sip_state {
	uint64_t v0, v1, v2, v3;
};

static void sip_round(struct sip_state *s)
{
	s->v0 += s->v1; s->v1 = rotl(s->v1, 13); s->v1 ^= s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3; s->v3 = rotl(s->v3, 16); s->v3 ^= s->v2;
	s->v0 += s->v3; s->v3 = rotl(s->v3, 21); s->v3 ^= s->v0;
	s->v2 += s->v1; s->v1 = rotl(s->v1, 17); s->v1 ^= s->v2;
	s->v2 = rotl(s->v2, 32);
}

static void sip_absorb(struct sip_state *s, uint64_t m)
{
	s->v3 ^= m;
	sip_round(s);
	sip_round(s);
	s->v0 ^= m;
}

static uint64_t load_le64(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

unsigned long lfht_hash(const void *data, size_t len,
			const struct lfht_hash_key *key)
{
	const unsigned char *p = data;
	struct sip_state s = {
		.v0 = key->k0 ^ 0x736f6d6570736575ULL,
		.v1 = key->k1 ^ 0x646f72616e646f6dULL,
		.v2 = key->k0 ^ 0x6c7967656e657261ULL,
		.v3 = key->k1 ^ 0x7465646279746573ULL,
	};
	size_t left = len;

	for (; left >= 8; left -= 8, p += 8)
		sip_absorb(&s, load_le64(p, 8));
	sip_absorb(&s, load_le64(p, left) | (uint64_t)len << 56);
	s.v2 ^= 0xff;
	sip_round(&s);
	sip_round(&s);
	sip_round(&s);
	sip_round(&s);
	return (unsigned long)(s.v0 ^ s.v1 ^ s.v2 ^ s.v3);
}

int lfht_hash_key_random(struct lfht_hash_key *key)
{
	unsigned char buf[16];
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(buf)) {
		n = getrandom(buf + got, sizeof(buf) - got, 0);
		if (n < 0)
			return -1;
		got += (size_t)n;
	}
	key->k0 = load_le64(buf, 8);
	key->k1 = load_le64(buf + 8, 8);
	return 0;
}
