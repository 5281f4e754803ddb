package robotstxt

// OriginKey is originKey, for the vector tests of package robotstxt_test.
var OriginKey = originKey
