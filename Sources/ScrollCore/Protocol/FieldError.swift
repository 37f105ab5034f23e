/// A field that broke its rule. Each format names fields its own way (`pointer.x` on the
/// wire, `"x"` in a trace line); the rest of the sentence is the rule's.
public struct FieldError: Error, Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        /// `on`: the kind of line or message that needs it, when not every kind does.
        case missing(on: String?)
        /// The rule's expectation, with the string given when it was one.
        case invalid(String)
    }
    public var field: String
    public var problem: Problem

    public init(field: String, _ problem: Problem) { self.field = field; self.problem = problem }

    /// "<name> is required" or "<name> must be …".
    public func message(naming name: String) -> String {
        switch problem {
        case .missing(let on):
            return "\(name) is required"
                + (on.map { " on \("aeiou".contains($0.prefix(1)) ? "an" : "a") \($0) line" } ?? "")
        case .invalid(let expectation): return "\(name) must be \(expectation)"
        }
    }
}
