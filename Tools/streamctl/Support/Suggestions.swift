/// The closest names to a mistyped one, for "did you mean …?" (verbs and stream names).
///
/// The distance is the optimal string alignment distance (Levenshtein plus swapping two neighbours, so
/// `tial` is one step from `tail`), counted in Unicode scalars. A name is suggested only when it is close
/// for its length: at most 1 step for words up to 4 scalars, 2 up to 8, 3 beyond; or when the mistyped
/// word is the start of it (`trunc` for `truncate`, at least 3 scalars typed). The work is bounded: a
/// candidate whose length differs by more than the allowed steps is skipped without computing anything,
/// only the band of the table within the bound of its diagonal is computed, and a computation stops as
/// soon as a row of the table exceeds the bound. Stateless.
enum Suggestions {
    /// At most `limit` of `candidates` close to `word`, the closest first (then by name); empty when none is close.
    static func closest(to word: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return [] }
        var found: [(distance: Int, name: String)] = []
        for candidate in candidates where candidate != word {
            let target = Array(candidate.lowercased().unicodeScalars)
            if typed.count >= 3, target.count > typed.count, target.starts(with: typed) {
                found.append((target.count - typed.count, candidate))
                continue
            }
            let bound = allowedSteps(Swift.max(typed.count, target.count))
            guard abs(typed.count - target.count) <= bound, let distance = distance(typed, target, atMost: bound) else { continue }
            found.append((distance, candidate))
        }
        return found.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(limit).map(\.name)
    }

    /// How many steps a word of `length` scalars may be away from a suggestion.
    static func allowedSteps(_ length: Int) -> Int {
        length <= 4 ? 1 : length <= 8 ? 2 : 3
    }

    /// The optimal string alignment distance of `a` and `b`, or nil when it is more than `bound`.
    ///
    /// Only the band of the table within `bound` of its diagonal is computed (cells outside it are more
    /// than `bound` anyway), so the work is O(length × bound) even for two 200-character names.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        guard abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return Swift.max(a.count, b.count) }
        let beyond = bound + 1
        var before = [Int](repeating: beyond, count: b.count + 1)
        var previous = (0...b.count).map { Swift.min($0, beyond) }
        var current = [Int](repeating: beyond, count: b.count + 1)
        for i in 1...a.count {
            let (low, high) = (Swift.max(1, i - bound), Swift.min(b.count, i + bound))
            current[low - 1] = low == 1 ? Swift.min(i, beyond) : beyond
            if high < b.count { current[high + 1] = beyond }
            var smallest = current[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = Swift.min(value, before[j - 2] + 1) }
                current[j] = Swift.min(value, beyond)
                smallest = Swift.min(smallest, current[j])
            }
            if smallest > bound { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
    }
}
