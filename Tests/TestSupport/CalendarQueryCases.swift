/// Tasks as apps write them and calendar-query filters over them, each
/// with the exact set of tasks RFC 4791 (9.7, 9.9) says it keeps: tried on
/// todo-server (both backends) and on Radicale, a CalDAV server of others.
public enum CalendarQueryCases {
    /// Tasks as apps write them, by name.
    public static let fixtures: [(String, [String])] = [
        ("a", ["SUMMARY:Buy Milk", #"CATEGORIES:home,post office"#, "DUE;VALUE=DATE:20261210"]),
        ("b", ["SUMMARY:Call Müller", "STATUS:COMPLETED", "COMPLETED:20261201T120000Z"]),
        ("c", ["SUMMARY:Écrire", "STATUS:NEEDS-ACTION", "DTSTART:20261205T090000Z", "DURATION:PT2H", "PRIORITY:1"]),
        ("d", ["SUMMARY:Pay rent", "STATUS:IN-PROCESS", "DUE;TZID=Europe/Berlin:20261220T100000",
               "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:rent", "TRIGGER;RELATED=END:-PT1H", "END:VALARM"]),
        ("e", ["SUMMARY:straße fegen", "STATUS:CANCELLED", "CREATED:20260101T000000Z"]),
        ("f", ["SUMMARY:Call Delhi", "DUE;TZID=Custom Zone:20261215T120000"]),
        ("g", ["SUMMARY:Two lists", "CATEGORIES:home", "CATEGORIES:work"]),
    ]

    /// A VTIMEZONE no system knows by its name: India's offset, as Outlook writes one.
    public static let customZone = [
        "BEGIN:VTIMEZONE", "TZID:Custom Zone", "BEGIN:STANDARD", "DTSTART:16010101T000000", "TZOFFSETFROM:+0530",
        "TZOFFSETTO:+0530", "END:STANDARD", "END:VTIMEZONE",
    ]

    public static func object(_ uid: String, _ lines: [String]) -> String {
        let zone = uid == "f" ? customZone : []
        return (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN"] + zone
            + ["BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z"] + lines + ["END:VTODO", "END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    public static func query(_ filter: String) -> String {
        """
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>\
        <c:filter><c:comp-filter name="VCALENDAR">\(filter)</c:comp-filter></c:filter></c:calendar-query>
        """
    }

    public static func todo(_ inner: String) -> String { #"<c:comp-filter name="VTODO">"# + inner + "</c:comp-filter>" }

    /// Each filter (inside VCALENDAR) and the tasks it keeps.
    public static let cases: [(String, String, Set<String>)] = [
        ("pending as apps ask: STATUS is not COMPLETED (a has no STATUS: not matched, RFC 4791 9.7.2)",
         todo(#"<c:prop-filter name="STATUS"><c:text-match negate-condition="yes">COMPLETED</c:text-match></c:prop-filter>"#),
         ["c", "d", "e"]),
        ("COMPLETED defined", todo(#"<c:prop-filter name="COMPLETED"/>"#), ["b"]),
        ("COMPLETED not defined", todo(#"<c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>"#), ["a", "c", "d", "e", "f", "g"]),
        ("a category, one item of a list", todo(#"<c:prop-filter name="CATEGORIES"><c:text-match>post office</c:text-match></c:prop-filter>"#), ["a"]),
        ("ascii-casemap folds ASCII letters", todo(#"<c:prop-filter name="CATEGORIES"><c:text-match collation="i;ascii-casemap">POST</c:text-match></c:prop-filter>"#), ["a"]),
        ("i;octet does not", todo(#"<c:prop-filter name="CATEGORIES"><c:text-match collation="i;octet">POST</c:text-match></c:prop-filter>"#), []),
        ("ascii-casemap leaves Ü", todo(#"<c:prop-filter name="SUMMARY"><c:text-match>MÜLLER</c:text-match></c:prop-filter>"#), []),
        ("unicode-casemap folds it", todo(#"<c:prop-filter name="SUMMARY"><c:text-match collation="i;unicode-casemap">MÜLLER</c:text-match></c:prop-filter>"#), ["b"]),
        ("unicode-casemap, accented capital", todo(#"<c:prop-filter name="SUMMARY"><c:text-match collation="i;unicode-casemap">écrire</c:text-match></c:prop-filter>"#), ["c"]),
        ("negated text: no SUMMARY holding 'call'", todo(#"<c:prop-filter name="SUMMARY"><c:text-match negate-condition="yes">call</c:text-match></c:prop-filter>"#), ["a", "c", "d", "e", "g"]),
        ("a start and duration overlap the range", todo(#"<c:time-range start="20261205T100000Z" end="20261205T103000Z"/>"#), ["c", "e", "g"]),
        ("a due time in a VTIMEZONE's zone (12:00 +05:30 is 06:30Z)", todo(#"<c:time-range start="20261215T062959Z" end="20261215T063000Z"/>"#), ["e", "f", "g"]),
        ("a due time in a system zone (10:00 Berlin is 09:00Z)", todo(#"<c:prop-filter name="DUE"><c:time-range start="20261220T085959Z" end="20261220T090001Z"/></c:prop-filter>"#), ["d"]),
        ("a whole day overlaps", todo(#"<c:prop-filter name="DUE"><c:time-range start="20261210T230000Z" end="20261211T010000Z"/></c:prop-filter>"#), ["a"]),
        ("completed in a range, no CREATED", todo(#"<c:time-range start="20261130T000000Z" end="20261202T000000Z"/>"#), ["b", "e", "g"]),
        ("an alarm an hour before due", todo(#"<c:comp-filter name="VALARM"><c:time-range start="20261220T073000Z" end="20261220T083000Z"/></c:comp-filter>"#), ["d"]),
        ("an alarm outside the range", todo(#"<c:comp-filter name="VALARM"><c:time-range start="20261220T090000Z" end="20261220T100000Z"/></c:comp-filter>"#), []),
        ("with an alarm", todo(#"<c:comp-filter name="VALARM"/>"#), ["d"]),
        ("without one", todo(#"<c:comp-filter name="VALARM"><c:is-not-defined/></c:comp-filter>"#), ["a", "b", "c", "e", "f", "g"]),
        ("a parameter's value", todo(#"<c:prop-filter name="DUE"><c:param-filter name="TZID"><c:text-match>berlin</c:text-match></c:param-filter></c:prop-filter>"#), ["d"]),
        ("a parameter not defined", todo(#"<c:prop-filter name="DUE"><c:param-filter name="TZID"><c:is-not-defined/></c:param-filter></c:prop-filter>"#), ["a"]),
        ("two prop-filters: both must hold", todo(#"<c:prop-filter name="STATUS"/><c:prop-filter name="PRIORITY"><c:text-match match-type="equals">1</c:text-match></c:prop-filter>"#), ["c"]),
        ("a time zone component", #"<c:comp-filter name="VTIMEZONE"/>"#, ["f"]),
        ("no VTODO", #"<c:comp-filter name="VTODO"><c:is-not-defined/></c:comp-filter>"#, []),
        ("events: none here", #"<c:comp-filter name="VEVENT"/>"#, []),
        ("a category on a second line", todo(#"<c:prop-filter name="CATEGORIES"><c:text-match>work</c:text-match></c:prop-filter>"#), ["g"]),
        ("negated over every line: no CATEGORIES holds home", todo(#"<c:prop-filter name="CATEGORIES"><c:text-match negate-condition="yes">home</c:text-match></c:prop-filter>"#), []),
        ("every task", todo(""), ["a", "b", "c", "d", "e", "f", "g"]),
    ]

}
