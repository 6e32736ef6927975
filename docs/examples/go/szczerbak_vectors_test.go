// A tiny Szczerbak engine checked against dominokit's exported test vectors, from the vectors
// alone: Go's standard library only, no Python, no protocol. Run it with
//
//	cd docs/examples/go && go test ./...
//
// VECTORS=<folder> points it at another export's szczerbak folder (default: the bundled
// ../../../conformance/vectors/szczerbak). PLANT_BUG=parity plants a rule bug (the engine
// forgets the parity rule R-SZC-04). The engine is the one of docs/examples/szczerbak_engine.py.
package szczerbakvectors

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type obj = map[string]any

var (
	placement = regexp.MustCompile(`^([0-6])-([0-6])@([LR])([0-6])$`)
	tileText  = regexp.MustCompile(`^([0-6])-([0-6])$`)
)

// plantedBug is read while a test runs, never when the package loads: go test caches a
// result against the environment variables a test reads, and only reads made while tests
// run are recorded, so PLANT_BUG=parity go test ./... would otherwise print "ok (cached)".
func plantedBug() string { return os.Getenv("PLANT_BUG") }

// ------------------------------------------------------------------------ the tiny engine

type refusal struct{ code, rule, message string }

func (r *refusal) Error() string { return r.message }

func refuse(code, rule, message string) *refusal { return &refusal{code, rule, message} }

type tile [2]int

func (t tile) String() string { return fmt.Sprintf("%d-%d", t[0], t[1]) }

func pips(hand []tile) int {
	sum := 0
	for _, t := range hand {
		sum += t[0] + t[1]
	}
	return sum
}

type hand struct {
	hands      [2][]tile
	widow      [2]int
	chain      [][2]int
	end        int
	starter    int
	toMove     any // 0, 1 or nil
	passes     int
	lastPlaced [2]any
	result     obj
}

type move struct {
	t     tile
	touch int
}

func newHand(deal any, inMatch bool) (*hand, error) {
	d, ok := deal.(obj)
	if !ok {
		return nil, refuse("bad_request", "", "no deal")
	}
	hs, _ := d["hands"].([]any)
	if len(hs) != 2 {
		return nil, refuse("bad_request", "", "deal.hands must hold two hands")
	}
	h := &hand{}
	seen := map[string]bool{}
	for p := 0; p < 2; p++ {
		list, _ := hs[p].([]any)
		for _, v := range list {
			s, _ := v.(string)
			m := tileText.FindStringSubmatch(s)
			if m == nil || m[1] > m[2] {
				return nil, refuse("bad_request", "", fmt.Sprintf("not a tile: %v", v))
			}
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			h.hands[p] = append(h.hands[p], tile{a, b})
			seen[s] = true
		}
		sort.Slice(h.hands[p], func(i, j int) bool { return h.hands[p][i].String() < h.hands[p][j].String() })
		if len(h.hands[p]) != 10 {
			return nil, refuse("bad_request", "R-SZC-01", "hands must hold 10 tiles each")
		}
	}
	if s, _ := d["stock"].([]any); len(s) > 0 {
		return nil, refuse("bad_request", "R-SZC-01", "Szczerbak has no stock")
	}
	if s, _ := d["out_of_play"].([]any); len(s) > 0 {
		return nil, refuse("bad_request", "R-SZC-01", "Szczerbak has no stock")
	}
	if d["starter"] != nil {
		rule := "R-SZC-01"
		if inMatch {
			rule = "R-ALL-04"
		}
		return nil, refuse("bad_request", rule, "the widow decides the starter")
	}
	w, _ := d["widow"].([]any)
	if len(w) != 2 {
		return nil, refuse("bad_request", "R-SZC-01", "the widow must be two pips")
	}
	x, okx := w[0].(float64)
	y, oky := w[1].(float64)
	if !okx || !oky || x == y || x < 0 || y < 0 || x > 6 || y > 6 || x != float64(int(x)) || y != float64(int(y)) {
		return nil, refuse("bad_request", "R-SZC-01", "the widow must be two different pips")
	}
	lo, hi := int(x), int(y)
	if lo > hi {
		lo, hi = hi, lo
	}
	seen[tile{lo, hi}.String()] = true
	for a := 0; a < 7; a++ {
		for b := a + 1; b < 7; b++ {
			if !seen[tile{a, b}.String()] || len(seen) != 21 {
				return nil, refuse("bad_request", "R-SZC-01", "the deal is not the 21 tiles without doubles")
			}
		}
	}
	h.widow = [2]int{int(x), int(y)}
	h.chain = [][2]int{{lo, hi}}
	h.end = hi
	h.starter = 1
	if x > y {
		h.starter = 0
	}
	h.toMove = h.starter
	h.checkEnd(&[]obj{})
	return h, nil
}

// placements lists (tile, touching half) for every tile of player that fits the open end.
func (h *hand) placements(player int) []move {
	var out []move
	for _, t := range h.hands[player] {
		a, b := t[0], t[1]
		if h.end == 0 {
			out = append(out, move{t, a}, move{t, b}) // R-SZC-05
		} else if a == h.end || b == h.end {
			other := a
			if a == h.end {
				other = b
			}
			if plantedBug() == "parity" || other == 0 || other%2 != h.end%2 { // R-SZC-04
				out = append(out, move{t, h.end})
			}
		}
	}
	return out
}

func (h *hand) legal() []string {
	if h.toMove == nil {
		return []string{}
	}
	var out []string
	for _, m := range h.placements(h.toMove.(int)) {
		out = append(out, fmt.Sprintf("%s@R%d", m.t, m.touch))
	}
	if len(out) == 0 {
		return []string{"pass"}
	}
	sort.Strings(out)
	return out
}

func (h *hand) apply(action any) ([]obj, error) {
	s, ok := action.(string)
	if !ok {
		return nil, refuse("bad_request", "", "action must be a string")
	}
	m := placement.FindStringSubmatch(s)
	if s != "draw" && s != "pass" && s != "stop" && m == nil {
		if t := tileText.FindStringSubmatch(s); t != nil && t[1] <= t[2] {
			return nil, refuse("illegal_action", "R-SZC-02", "the widow already opened the chain")
		}
		return nil, refuse("bad_request", "", "not an action in canonical notation: "+s)
	}
	if m != nil && (m[1] > m[2] || (m[4] != m[1] && m[4] != m[2])) {
		return nil, refuse("bad_request", "", "not an action in canonical notation: "+s)
	}
	if h.toMove == nil {
		return nil, refuse("illegal_action", "R-ALL-14", "the hand is over")
	}
	player := h.toMove.(int)
	switch s {
	case "draw":
		return nil, refuse("illegal_action", "R-SZC-01", "no drawing")
	case "stop":
		return nil, refuse("illegal_action", "R-ALL-13", "no extra tile")
	case "pass":
		if len(h.placements(player)) > 0 {
			return nil, refuse("illegal_action", "R-SZC-06", "a player who can place must place")
		}
		h.passes++
		h.toMove = 1 - player
		events := []obj{{"type": "pass", "player": player}}
		h.checkEnd(&events)
		return events, nil
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	touch, _ := strconv.Atoi(m[4])
	t := tile{a, b}
	index := -1
	for i, held := range h.hands[player] {
		if held == t {
			index = i
		}
	}
	if index < 0 {
		return nil, refuse("illegal_action", "R-ALL-12", t.String()+" is not in the hand")
	}
	if m[3] != "R" {
		return nil, refuse("illegal_action", "R-SZC-03", "one end only")
	}
	fits := false
	for _, p := range h.placements(player) {
		fits = fits || (p.t == t && p.touch == touch)
	}
	if !fits {
		return nil, refuse("illegal_action", "R-SZC-04", s+" does not fit the open end")
	}
	other := a
	if touch == a {
		other = b
	}
	h.hands[player] = append(append([]tile{}, h.hands[player][:index]...), h.hands[player][index+1:]...)
	h.chain = append(h.chain, [2]int{touch, other})
	h.end = other
	h.passes = 0
	h.lastPlaced[player] = t.String()
	h.toMove = 1 - player
	events := []obj{{"type": "place", "player": player, "action": s}}
	h.checkEnd(&events)
	return events, nil
}

// checkEnd ends the hand by domino or block, after every action (R-ALL-10).
func (h *hand) checkEnd(events *[]obj) {
	for p := 0; p < 2; p++ {
		if len(h.hands[p]) == 0 {
			h.finish(p, "domino", events)
			return
		}
	}
	if len(h.placements(0)) == 0 && len(h.placements(1)) == 0 {
		left := [2]int{pips(h.hands[0]), pips(h.hands[1])}
		winner := -1
		if left[0] < left[1] {
			winner = 0
		} else if left[1] < left[0] {
			winner = 1
		}
		h.finish(winner, "block", events)
	}
}

func (h *hand) finish(winner int, reason string, events *[]obj) {
	left := []any{pips(h.hands[0]), pips(h.hands[1])}
	points := []any{0, 0}
	terms := []any{}
	var who any
	if winner >= 0 {
		who = winner
		mine, theirs := left[winner].(int), left[1-winner].(int)
		if theirs != 0 {
			terms = append(terms, obj{"term": "opponent_pips", "player": winner, "points": theirs, "rule": "R-SZC-07"})
		}
		if mine != 0 {
			terms = append(terms, obj{"term": "own_pips", "player": winner, "points": -mine, "rule": "R-SZC-07"})
		}
		points[winner] = theirs - mine
	}
	h.result = obj{"winner": who, "reason": reason, "points": points, "pips": left, "terms": terms}
	h.toMove = nil
	*events = append(*events, obj{"type": "end", "result": h.result})
}

func (h *hand) state() obj {
	hands := []any{}
	for _, list := range h.hands {
		texts := []any{}
		for _, t := range list {
			texts = append(texts, t.String())
		}
		hands = append(hands, texts)
	}
	var result any
	if h.result != nil {
		result = h.result
	}
	return obj{
		"variant": "szczerbak", "options": obj{}, "hands": hands, "stock": []any{},
		"out_of_play": []any{},
		"table":       obj{"kind": "chain", "tiles": h.chain, "left": nil, "right": h.end},
		"starter":     h.starter, "to_move": h.toMove, "turn": obj{"draws": 0, "extra": false},
		"passes": h.passes, "points": []any{0, 0}, "last_placed": h.lastPlaced[:],
		"widow": h.widow[:], "result": result,
	}
}

type match struct {
	firstStarter, handsPlayed int
	totals                    [2]int
	winner                    any
}

func (m *match) add(result obj) {
	m.handsPlayed++
	points := result["points"].([]any)
	for p := 0; p < 2; p++ {
		m.totals[p] += points[p].(int)
	}
	best := -1
	for p := 0; p < 2; p++ {
		if m.totals[p] >= 100 && (best < 0 || m.totals[p] > m.totals[best]) {
			best = p
		}
	}
	if best >= 0 {
		m.winner = best
	}
}

func (m *match) state() obj {
	finished := m.winner != nil
	var next any = obj{"starter": nil, "hand_sizes": []any{10, 10}}
	if finished {
		next = nil
	}
	return obj{"variant": "szczerbak", "options": obj{}, "first_starter": m.firstStarter,
		"hands_played": m.handsPlayed, "totals": m.totals[:], "next": next,
		"winner": m.winner, "finished": finished}
}

// engine holds the verbs of the protocol as plain methods.
type engine struct {
	hand  *hand
	match *match
}

func (e *engine) send(req obj) (any, error) {
	cmd, _ := req["cmd"].(string)
	switch cmd {
	case "new_hand", "new_match":
		if req["variant"] != "szczerbak" {
			return nil, refuse("unsupported", "", "only szczerbak is played here")
		}
		if opts, _ := req["options"].(obj); len(opts) > 0 {
			return nil, refuse("unsupported", "", "Szczerbak has no options")
		}
		if cmd == "new_match" {
			first, ok := req["first_starter"].(float64)
			if !ok || (first != 0 && first != 1) {
				return nil, refuse("bad_request", "", "first_starter")
			}
			e.match, e.hand = &match{firstStarter: int(first)}, nil
			return e.match.state(), nil
		}
		h, err := newHand(req["deal"], false)
		if err != nil {
			return nil, err
		}
		e.hand, e.match = h, nil
		return h.state(), nil
	case "next_hand":
		if e.match == nil {
			return nil, refuse("no_match", "", "no match in progress")
		}
		if e.match.winner != nil {
			return nil, refuse("bad_request", "", "the match is over")
		}
		if e.hand != nil && e.hand.result == nil {
			return nil, refuse("bad_request", "", "the current hand has not ended")
		}
		h, err := newHand(req["deal"], true)
		if err != nil {
			return nil, err
		}
		e.hand = h
		if h.result != nil {
			e.match.add(h.result)
		}
		return h.state(), nil
	case "match_state":
		if e.match == nil {
			return nil, refuse("no_match", "", "no match in progress")
		}
		return e.match.state(), nil
	case "legal", "state", "apply":
		if e.hand == nil {
			return nil, refuse("no_hand", "", "no hand in progress")
		}
		if cmd == "legal" {
			return e.hand.legal(), nil
		}
		if cmd == "state" {
			return e.hand.state(), nil
		}
		events, err := e.hand.apply(req["action"])
		if err == nil && e.match != nil && e.hand.result != nil {
			e.match.add(e.hand.result)
		}
		return events, err
	}
	return nil, refuse("unsupported", "", "unknown command")
}

// ------------------------------------------------------------------------ the vector runner

// plain turns a Go value into what encoding/json decodes, to compare with a vector's value.
func plain(v any) any {
	data, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func same(what string, want, got any) error {
	if !reflect.DeepEqual(plain(want), plain(got)) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		return fmt.Errorf("%s differs: expected %s, got %s", what, w, g)
	}
	return nil
}

// checkLegal compares a legal set: the sorted list, or for more than 40 actions a count and
// the sha256 of the sorted actions joined by "\n" (UTF-8, no final newline).
func checkLegal(what string, want obj, got []string) error {
	sorted := append([]string{}, got...)
	sort.Strings(sorted)
	if list, ok := want["actions"]; ok {
		if err := same(what+": legal set", list, sorted); err != nil {
			return err
		}
		return nil
	}
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	if float64(len(sorted)) != want["count"] || hex.EncodeToString(sum[:]) != want["sha256"] {
		return fmt.Errorf("%s: expected %v legal actions, got %d (or another set)", what, want["count"], len(sorted))
	}
	return nil
}

func must(e *engine, req obj) any {
	v, err := e.send(req)
	if err != nil {
		panic(fmt.Sprintf("%s was refused: %v", req["cmd"], err))
	}
	return v
}

func checkHand(v obj) error {
	e := &engine{}
	start := obj{"cmd": "new_hand", "variant": v["variant"], "options": v["options"], "deal": v["deal"]}
	if err := same("start state", v["start"], must(e, start)); err != nil {
		return err
	}
	for i, raw := range v["steps"].([]any) {
		step := raw.(obj)
		if err := checkLegal(fmt.Sprintf("step %d", i+1), step["legal"].(obj), e.hand.legal()); err != nil {
			return err
		}
		events, err := e.send(obj{"cmd": "apply", "action": step["action"]})
		if err != nil {
			return fmt.Errorf("step %d: %v refused: %v", i+1, step["action"], err)
		}
		if err := same(fmt.Sprintf("step %d: events", i+1), step["events"], events); err != nil {
			return err
		}
		if err := same(fmt.Sprintf("step %d: state", i+1), step["state"], e.hand.state()); err != nil {
			return err
		}
	}
	if err := checkLegal("after the last step", v["final_legal"].(obj), e.hand.legal()); err != nil {
		return err
	}
	return same("result", v["result"], e.hand.state()["result"])
}

func snapshot(e *engine) any {
	out := obj{}
	for _, cmd := range []string{"state", "match_state"} {
		v, err := e.send(obj{"cmd": cmd})
		if err != nil {
			v = obj{"error": err.(*refusal).code}
		}
		out[cmd] = v
	}
	return plain(out)
}

func checkRefusal(v obj) error {
	e := &engine{}
	for i, req := range v["setup"].([]any) {
		if _, err := e.send(req.(obj)); err != nil {
			return fmt.Errorf("setup request %d was refused: %v", i+1, err)
		}
	}
	before := snapshot(e)
	want := v["error"].(obj)
	if line, ok := v["line_base64"].(string); ok {
		bytes, _ := base64.StdEncoding.DecodeString(line)
		var req obj
		if json.Unmarshal(bytes, &req) == nil && req["seq"] != nil {
			return fmt.Errorf("the line %q is a request; expected %v", bytes, want["code"])
		}
		if want["code"] != "bad_request" { // this engine answers any unreadable line so
			return fmt.Errorf("a line that is not a request gets bad_request, not %v", want["code"])
		}
	} else {
		_, err := e.send(v["request"].(obj))
		if err == nil {
			return fmt.Errorf("accepted %v; expected %v", v["request"], want["code"])
		}
		r := err.(*refusal)
		if r.code != want["code"] {
			return fmt.Errorf("refused with code %s, expected %v", r.code, want["code"])
		}
		if (r.code == "illegal_action" || want["rule"] != nil) && r.rule != want["rule"] {
			return fmt.Errorf("refused citing %q, expected %v", r.rule, want["rule"])
		}
	}
	return same("state and match_state after the refusal", before, snapshot(e))
}

// perft counts sequences of depth actions; one that ends the hand counts but is not extended.
func perft(v obj, path []string, depth int) int {
	e := &engine{}
	must(e, obj{"cmd": "new_hand", "variant": v["variant"], "options": v["options"], "deal": v["deal"]})
	for _, a := range v["actions"].([]any) {
		must(e, obj{"cmd": "apply", "action": a})
	}
	for _, a := range path {
		must(e, obj{"cmd": "apply", "action": a})
	}
	if depth == 0 || e.hand.result != nil {
		return 1
	}
	total := 0
	for _, a := range e.hand.legal() {
		total += perft(v, append(append([]string{}, path...), a), depth-1)
	}
	return total
}

func checkPerft(v obj) error {
	for _, raw := range v["counts"].([]any) {
		c := raw.(obj)
		depth := int(c["depth"].(float64))
		got := obj{}
		total := 0
		for _, a := range perftFirst(v) {
			n := perft(v, []string{a}, depth-1)
			got[a] = n
			total += n
		}
		if float64(total) != c["count"] {
			return fmt.Errorf("perft(%d) = %d, expected %v", depth, total, c["count"])
		}
		if divide, ok := c["divide"]; ok {
			if err := same(fmt.Sprintf("perft(%d) per first action", depth), divide, got); err != nil {
				return err
			}
		}
	}
	return nil
}

func perftFirst(v obj) []string {
	e := &engine{}
	must(e, obj{"cmd": "new_hand", "variant": v["variant"], "options": v["options"], "deal": v["deal"]})
	for _, a := range v["actions"].([]any) {
		must(e, obj{"cmd": "apply", "action": a})
	}
	return e.hand.legal()
}

func withoutPhase(state any) any {
	out := obj{}
	for k, v := range state.(obj) {
		if k != "phase" {
			out[k] = v
		}
	}
	return out
}

func checkMatch(v obj) error {
	e := &engine{}
	start := obj{"cmd": "new_match", "variant": v["variant"], "options": v["options"], "first_starter": v["first_starter"]}
	if err := same("match at the start", v["start"], withoutPhase(must(e, start))); err != nil {
		return err
	}
	for i, raw := range v["hands"].([]any) {
		h := raw.(obj)
		if err := same(fmt.Sprintf("hand %d: start state", i+1), h["start"], must(e, obj{"cmd": "next_hand", "deal": h["deal"]})); err != nil {
			return err
		}
		for _, a := range h["actions"].([]any) {
			if _, err := e.send(obj{"cmd": "apply", "action": a}); err != nil {
				return fmt.Errorf("hand %d: %v refused: %v", i+1, a, err)
			}
		}
		if err := same(fmt.Sprintf("hand %d: match state after it", i+1), h["match"], withoutPhase(must(e, obj{"cmd": "match_state"}))); err != nil {
			return err
		}
	}
	return nil
}

func TestSzczerbakVectors(t *testing.T) {
	folder := os.Getenv("VECTORS")
	if folder == "" {
		folder = filepath.Join("..", "..", "..", "conformance", "vectors", "szczerbak")
	}
	checks := map[string]func(obj) error{"hands": checkHand, "refusals": checkRefusal, "perft": checkPerft, "matches": checkMatch}
	for _, kind := range []string{"hands", "refusals", "perft", "matches"} {
		data, err := os.ReadFile(filepath.Join(folder, kind+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			FormatVersion int    `json:"format_version"`
			Variant       string `json:"variant"`
			Vectors       []obj  `json:"vectors"`
		}
		if err := json.Unmarshal(data, &file); err != nil || file.FormatVersion != 1 || file.Variant != "szczerbak" {
			t.Fatalf("%s: not format 1 vectors of szczerbak (%v)", kind, err)
		}
		for _, v := range file.Vectors {
			v := v
			t.Run(fmt.Sprintf("%s/%v", kind, v["id"]), func(t *testing.T) {
				if err := checks[kind](v); err != nil {
					t.Errorf("FAIL %s.json %v (rules %v): %v", kind, v["id"], v["rules"], err)
				}
			})
		}
	}
}
