package earnings

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"swapbay/lib/clock"
)

// The worked examples of DESIGN.md §8, small enough to check by hand.

var exampleWeek = Week{Start: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}

func rowOf(t *testing.T, rep Report, id string) Row {
	t.Helper()
	for _, r := range rep.Rows {
		if r.UserId == id {
			return r
		}
	}
	t.Fatalf("no row for %s", id)
	return Row{}
}

// Rates 1.25 per dead battery, 0.40 per move, 2.00 per recover.
//
//	A (admin):  10 dead, 20 moves          base 12.50 + 8.00 = 20.50; −20% → 16.40; keeps 0%    → gives 16.40
//	B (admin):  50 moves, 1 recover        base 20.00 + 2.00 = 22.00; −10% → 19.80; keeps 50%   → gives  9.90
//	C (master): 4 dead                     base 5.00;                 −0%  →  5.00; keeps 100%  → gives  0.00
//	pool 26.30 shared by 3 → 8.76 each and 2 cents over, one each to A and B (user id order)
//	A 16.40 − 16.40 + 8.77 = 8.77;  B 19.80 − 9.90 + 8.77 = 18.67;  C 5.00 − 0 + 8.76 = 13.76
//	D (driver): 8 dead, 30 moves           base 10.00 + 12.00 = 22.00; −20% → 17.60
func TestPoolOfThreeAdminsWithDifferentWithholdings(t *testing.T) {
	rates := Rates{DeadBattery: 125, Move: 40, Recover: 200}
	people := []Earner{
		{Id: "A", FirstName: "Ann", Role: "admin", PayReductionPercentage: 20, Withholding: 0},
		{Id: "B", FirstName: "Ben", Role: "admin", PayReductionPercentage: 10, Withholding: 50},
		{Id: "C", FirstName: "Cy", Role: "master_admin", PayReductionPercentage: 0, Withholding: 100},
		{Id: "D", FirstName: "Dee", Role: "driver", PayReductionPercentage: 20},
	}
	counts := map[string]Counts{
		"A": {DeadBatteries: 10, Moves: 20},
		"B": {Moves: 50, Recovers: 1},
		"C": {DeadBatteries: 4},
		"D": {DeadBatteries: 8, Moves: 30},
	}
	rep := build(exampleWeek, rates, people, counts, nil)
	if rep.Pool.TotalPooledEarnings != 2630 || rep.Pool.AdminCount != 3 || rep.Pool.PoolShare != 876 {
		t.Fatalf("pool %+v", rep.Pool)
	}
	for id, want := range map[string][4]Cents{ // base, individual, contribution, total
		"A": {2050, 1640, 1640, 877},
		"B": {2200, 1980, 990, 1867},
		"C": {500, 500, 0, 1376},
		"D": {2200, 1760, 0, 1760},
	} {
		r := rowOf(t, rep, id)
		if got := [4]Cents{r.BaseEarnings, r.IndividualEarnings, r.PoolContribution, r.TotalEarnings}; got != want {
			t.Errorf("%s: base, individual, contribution, total = %v, want %v", id, got, want)
		}
	}
	// highest total first
	if rep.Rows[0].UserId != "B" || rep.Rows[1].UserId != "D" || rep.Rows[3].UserId != "A" {
		t.Fatalf("order %s %s %s %s", rep.Rows[0].UserId, rep.Rows[1].UserId, rep.Rows[2].UserId, rep.Rows[3].UserId)
	}
	if b, _ := json.Marshal(rep.Pool.PoolShare); string(b) != "8.76" {
		t.Fatalf("JSON money %s", b)
	}
}

// An adjustment replaces the ledger's count for its task type; the ledger's count stays
// visible as counted. 3 moves adjusted to 10 at 0.50 → base 5.00, −20% → 4.00.
func TestAdjustmentReplacesACount(t *testing.T) {
	rates := Rates{Move: 50, DeadBattery: 100}
	people := []Earner{{Id: "D", Role: "driver", PayReductionPercentage: 20}}
	counts := map[string]Counts{"D": {Moves: 3, DeadBatteries: 2}}
	adj := map[string]map[string]Adjustment{"D": {"moves": {TaskType: "moves", OriginalCount: 3, AdjustedCount: 10}}}
	r := build(exampleWeek, rates, people, counts, adj).Rows[0]
	if r.Moves != 10 || r.Counted.Moves != 3 || r.DeadBatteries != 2 {
		t.Fatalf("counts %+v counted %+v", r, r.Counted)
	}
	if r.BaseEarnings != 700 || r.TotalEarnings != 560 {
		t.Fatalf("base %v total %v, want 7.00 and 5.60", r.BaseEarnings, r.TotalEarnings)
	}
}

// Half a cent rounds up, once per step: 1 dead at 0.25 with a 10% reduction is 0.225 → 0.23
// (banker's rounding would give 0.22); a withholding of 12.5% of 0.07 gives 0.06125 → 0.06;
// a pool of 0.05 shared by 2 is 0.025 → 0.03 each.
func TestRoundingHalfUp(t *testing.T) {
	if got := percentOf(25, 10); got != 23 {
		t.Fatalf("0.225 → %v", got)
	}
	if got := tenthsOf(7, 125); got != 6 {
		t.Fatalf("0.06125 → %v", got)
	}
	if got := divHalfUp(5, 2); got != 3 {
		t.Fatalf("0.025 → %v", got)
	}
	if got := divHalfUp(249, 100); got != 2 {
		t.Fatalf("2.49 → %v", got)
	}
}

func TestMoneyAndPercentLiterals(t *testing.T) {
	for lit, want := range map[string]Cents{"0": 0, "1": 100, "1.5": 150, "1.25": 125, "0.01": 1, "1000000": 100_000_000} {
		var a Amount
		_ = a.UnmarshalJSON([]byte(lit))
		if c, err := a.Check("x"); err != nil || c != want {
			t.Errorf("%s → %v, %v; want %v", lit, c, err, want)
		}
	}
	for _, lit := range []string{`-1`, `1.255`, `"1.25"`, `1e2`, `null`, `01`, `1000000.01`, `true`, `NaN`} {
		var a Amount
		_ = a.UnmarshalJSON([]byte(lit))
		if _, err := a.Check("x"); err == nil {
			t.Errorf("%s accepted", lit)
		}
	}
	for lit, want := range map[string]Tenths{"0": 0, "12.5": 125, "100": 1000, "7.50": 75, "0.1": 1} {
		if got, ok := ParseTenths([]byte(lit)); !ok || got != want {
			t.Errorf("%s → %v %v", lit, got, ok)
		}
	}
	for _, lit := range []string{"-1", "100.1", "101", "12.55", `"5"`, "1e1", "null", ""} {
		if _, ok := ParseTenths([]byte(lit)); ok {
			t.Errorf("%s accepted", lit)
		}
	}
}

// Weeks are cut at local Monday 00:00, DST included: in New York the week of 2 March 2026
// ends on Monday 9 March 00:00 EDT = 04:00 UTC (the clocks went forward on Sunday 8 March);
// the week of 26 October ends on Monday 2 November 00:00 EST = 05:00 UTC (back on 1 November).
func TestWeeksAcrossDST(t *testing.T) {
	ny := clock.LoadLocation("America/New_York")
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	spring, err := ParseWeek("2026-03-02", now, ny)
	if err != nil {
		t.Fatal(err)
	}
	if !spring.End.Equal(time.Date(2026, 3, 9, 4, 0, 0, 0, time.UTC)) || spring.EndDate() != "2026-03-08" {
		t.Fatalf("spring week ends %v (%s)", spring.End.UTC(), spring.EndDate())
	}
	fall, _ := ParseWeek("2026-10-26", now, ny)
	if !fall.End.Equal(time.Date(2026, 11, 2, 5, 0, 0, 0, time.UTC)) || fall.Start.UTC().Hour() != 4 {
		t.Fatalf("fall week %v – %v", fall.Start.UTC(), fall.End.UTC())
	}
	for _, bad := range []string{"2026-03-03", "2026-3-2", "2026-02-30", "monday", "2026-11-30"} {
		if _, err := ParseWeek(bad, now, ny); err == nil {
			t.Errorf("weekStart %q accepted", bad)
		}
	}
	if w, _ := ParseWeek("", now, ny); w.StartDate() != "2026-11-16" || w.EndDate() != "2026-11-22" {
		t.Fatalf("this week %s – %s", w.StartDate(), w.EndDate())
	}
}

// The pool is paid out to the cent: for 10,000 random pools and every team of 1 to 20
// members, the shares add up to the pool, differ by at most a cent, and the odd cents go to
// the members in user id order whatever order the earners were read in.
func TestPoolSharesAddUpToThePool(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2026))
	rates := Rates{DeadBattery: 1}
	for range 10_000 {
		amount := rng.Int64N(10_000_000) // up to $100,000.00
		for n := 1; n <= 20; n++ {
			// one admin puts the whole pool in (1 dead battery = 1 cent, no reduction, keeps 0%),
			// the others nothing; the earners come in a shuffled order
			people := make([]Earner, n)
			counts := map[string]Counts{}
			for i := range people {
				people[i] = Earner{Id: fmt.Sprintf("u%02d", i), Role: "admin", Withholding: 100}
			}
			people[0].Withholding = 0
			counts[people[0].Id] = Counts{DeadBatteries: int(amount)}
			rng.Shuffle(n, func(i, j int) { people[i], people[j] = people[j], people[i] })
			rep := build(exampleWeek, rates, people, counts, nil)
			if rep.Pool.TotalPooledEarnings != Cents(amount) {
				t.Fatalf("pool %v, want %d cents", rep.Pool.TotalPooledEarnings, amount)
			}
			var sum, paid, earned Cents
			byId := map[string]Cents{}
			for _, m := range rep.Pool.AdminBreakdown {
				sum += m.PoolShare
				byId[m.User.Id] = m.PoolShare
			}
			for _, r := range rep.Rows {
				paid += r.TotalEarnings
				earned += r.IndividualEarnings
				if r.PoolShare != byId[r.UserId] {
					t.Fatalf("%s: row share %v, breakdown %v", r.UserId, r.PoolShare, byId[r.UserId])
				}
				if r.PoolShare != rep.Pool.PoolShare && r.PoolShare != rep.Pool.PoolShare+1 {
					t.Fatalf("%d cents by %d: %s gets %v, each %v", amount, n, r.UserId, r.PoolShare, rep.Pool.PoolShare)
				}
			}
			if sum != Cents(amount) || paid != earned {
				t.Fatalf("%d cents shared by %d: shares sum to %v, paid %v of %v", amount, n, sum, paid, earned)
			}
			for i := range n {
				if want := rep.Pool.PoolShare + Cents(min(1, max(0, int(amount%int64(n))-i))); byId[fmt.Sprintf("u%02d", i)] != want {
					t.Fatalf("%d cents by %d: u%02d gets %v, want %v", amount, n, i, byId[fmt.Sprintf("u%02d", i)], want)
				}
			}
		}
	}
}
