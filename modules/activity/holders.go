package activity

import (
	"sort"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/modules/charging"
)

// Holder is one holder account with batteries: a user's holding of one assignment type
// (spec part 1 §3 "Battery holder"). Its id is the holder account's id.
type Holder struct {
	Id             string  `json:"id"`
	User           UserRef `json:"user"`
	Type           string  `json:"type"`
	AssignmentType string  `json:"assignmentType"`
	Quantity       int     `json:"quantity"`
	Date           string  `json:"date"` // when the holding last changed
}

// InFieldItem is one line of the state's inFieldSummary.
type InFieldItem struct {
	UserId   string `json:"userId"`
	Type     string `json:"type"`
	Quantity int    `json:"quantity"`
}

// Assignment is one holding inside a HolderGroup.
type Assignment struct {
	Id             string `json:"id"`
	AssignmentType string `json:"assignmentType"`
	Quantity       int    `json:"quantity"`
	Date           string `json:"date"`
}

// HolderGroup is a user with everything they hold, for the holder lists.
type HolderGroup struct {
	User        UserRef      `json:"user"`
	Total       int          `json:"total"`
	Assignments []Assignment `json:"assignments"`
}

// Holders lists holder accounts with a positive balance (index kind+balance), largest first;
// userId, when given, keeps only that user's.
func Holders(app core.App, userId string) ([]Holder, error) {
	params := dbx.Params{"kind": schema.AccountKindHolder}
	where := "a.kind = {:kind} AND a.balance > 0"
	if userId != "" {
		params["me"] = userId
		where += " AND a.user = {:me}"
	}
	var rows []struct {
		Id      string `db:"id"`
		Type    string `db:"assignmentType"`
		Balance int    `db:"balance"`
		Updated string `db:"updated"`
		UserId  string `db:"u_id"`
		First   string `db:"firstName"`
		Last    string `db:"lastName"`
		Role    string `db:"role"`
	}
	err := app.DB().NewQuery("SELECT a.id, a.assignmentType, a.balance, a.updated, u.id AS u_id," +
		" u.firstName, u.lastName, u.role FROM " + schema.Accounts + " a CROSS JOIN " + schema.Users + " u ON u.id = a.user" +
		" WHERE " + where + " ORDER BY a.balance DESC, u.firstName, u.lastName").Bind(params).All(&rows)
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(rows))
	for i, r := range rows {
		out[i] = Holder{Id: r.Id, User: UserRef{Id: r.UserId, FirstName: r.First, LastName: r.Last, Role: r.Role},
			Type: r.Type, AssignmentType: r.Type, Quantity: r.Balance, Date: apiTime(r.Updated)}
	}
	return out, nil
}

// InFieldSummary reduces holders to {userId, type, quantity}.
func InFieldSummary(holders []Holder) []InFieldItem {
	out := make([]InFieldItem, len(holders))
	for i, h := range holders {
		out[i] = InFieldItem{UserId: h.User.Id, Type: h.AssignmentType, Quantity: h.Quantity}
	}
	return out
}

// GroupHolders groups holdings by user, users with the most batteries first.
func GroupHolders(holders []Holder) []HolderGroup {
	index := map[string]int{}
	var out []HolderGroup
	for _, h := range holders {
		i, ok := index[h.User.Id]
		if !ok {
			i = len(out)
			index[h.User.Id] = i
			out = append(out, HolderGroup{User: h.User})
		}
		out[i].Total += h.Quantity
		out[i].Assignments = append(out[i].Assignments,
			Assignment{Id: h.Id, AssignmentType: h.AssignmentType, Quantity: h.Quantity, Date: h.Date})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Total > out[j].Total })
	if out == nil {
		out = []HolderGroup{}
	}
	return out
}

// Pickup is one open pickup holding (GET /api/admin/active-pickups).
type Pickup struct {
	Id       string  `json:"id"`
	User     UserRef `json:"user"`
	Quantity int     `json:"quantity"`
	Date     string  `json:"date"`
}

// ActivePickups keeps the pickup holdings of holders.
func ActivePickups(holders []Holder) []Pickup {
	out := []Pickup{}
	for _, h := range holders {
		if h.AssignmentType == TypePickup {
			out = append(out, Pickup{Id: h.Id, User: h.User, Quantity: h.Quantity, Date: h.Date})
		}
	}
	return out
}

// Session is an active charging session (spec part 1 §3).
type Session struct {
	Id          string `json:"id"`
	Quantity    int    `json:"quantity"`
	ChargerType string `json:"chargerType"`
	StartedAt   string `json:"startedAt"`
	EtaAt       string `json:"etaAt"`
}

// ActiveSessions lists active charging sessions, soonest ETA first, read through their owner
// (charging.ActiveSessions).
func ActiveSessions(app core.App) ([]Session, error) {
	rows, err := charging.ActiveSessions(app)
	if err != nil {
		return nil, err
	}
	out := make([]Session, len(rows))
	for i, r := range rows {
		out[i] = Session{Id: r.Id, Quantity: r.Quantity, ChargerType: r.ChargerType, StartedAt: apiTime(r.StartedAt), EtaAt: apiTime(r.EtaAt)}
	}
	return out, nil
}
