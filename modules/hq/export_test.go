package hq

// SameReplica is sameReplica for the tests.
var SameReplica = sameReplica
