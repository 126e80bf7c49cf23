import Foundation
import PropertyBased
import Testing
import TodoCore

/// `FieldTimes` keeps the plan's times boxed, and none when no plan field
/// was edited: however the times are given (all at once, one by one, set
/// and taken back), they read back as given, and two holding the same times
/// are equal.
struct FieldTimesTests {
    /// For each field, as often no time as one of a few (some shared, so that `latest` ties).
    static let times = Gen.int(in: -4...3).map { $0 < 0 ? nil : Date(millisecondsSince1970: 1_700_000_000_000 + Int64($0) * 1_000) }
        .array(of: TodoField.allCases.count)

    @Test func timesReadBackAsGivenAndTheLatestIsTheirMaximum() async {
        await propertyCheck(count: 500, input: Self.times, Self.times) { given, other in
            let fields = TodoField.allCases
            let value = { (field: TodoField) in given[fields.firstIndex(of: field)!] }
            let atOnce = FieldTimes(Dictionary(uniqueKeysWithValues: fields.compactMap { field in value(field).map { (field, $0) } }))
            // The same times reached one field at a time, over other times taken back first.
            var oneByOne = FieldTimes()
            for (field, time) in zip(fields, other) { oneByOne[field] = time }
            for field in fields { oneByOne[field] = nil }
            for field in fields { oneByOne[field] = value(field) }
            for field in fields {
                #expect(atOnce[field] == value(field))
                #expect(oneByOne[field] == value(field))
            }
            #expect(atOnce == oneByOne)
            #expect(atOnce.hashValue == oneByOne.hashValue)
            #expect(atOnce.latest == given.compactMap { $0 }.max())
            #expect(atOnce.hasPlanTimes == TodoField.planned.contains { value($0) != nil })
        }
    }

    /// The table's places: the fields outside the plan first, each group
    /// numbered densely from 0, as `FieldTimes` and sync's readers index them.
    @Test func theFieldsPlacesAreDense() {
        #expect(TodoField.allCases.map(\.index) == Array(TodoField.allCases.indices))
        #expect(TodoField.allCases == TodoField.unplanned + TodoField.planned)
        #expect(Set(TodoField.allCases.map(\.column)).count == TodoField.allCases.count)
    }
}
