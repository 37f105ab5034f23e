/// A widget driven by name rather than by pointer (docs/PROTOCOL.md, `action`): the
/// carousel's add, the roller's change-to-number, the ruler's setValue.
public struct ActionInput: Sendable, Equatable {
    /// nil: the scene's default focus.
    public var widget: String?
    public var name: String
    public var args: [String: JSONValue]
    public init(widget: String?, name: String, args: [String: JSONValue] = [:]) {
        self.widget = widget; self.name = name; self.args = args
    }

    /// The argument `name` checked against `rule` (null counts as absent); a refusal names
    /// the action, the widget and the argument.
    public func argument<Raw, Value>(_ arg: String, _ rule: FieldRule<Raw, Value>, on widget: String)
        throws(ActionError) -> Value
    {
        let problem: FieldError.Problem
        switch args[arg] {
        case nil, .null?: problem = .missing(on: nil)
        case let value?:
            if let checked = rule.validate(value) { return checked }
            problem = .invalid(rule.expectation)
        }
        throw ActionError("\(name) on \"\(widget)\": " + FieldError(field: arg, problem).message(naming: "args.\(arg)"))
    }
}

/// Why an action was refused (the wire's `bad_action`): it names the widget, the action or
/// the argument at fault.
public struct ActionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Which action sets a widget's value, for a client that holds a value rather than a gesture (a
/// form field, docs/EMBEDDING.md): `action` with the value given as its argument `argument`, in
/// the form `takes` says. Sent in the widget's semantics as `set` (docs/PROTOCOL.md).
public struct ValueSetter: Sendable, Equatable {
    /// What the argument takes, made from the value the client holds.
    public enum Takes: String, Sendable, CaseIterable {
        /// The value as a number.
        case number
        /// The value rounded to a whole number.
        case integer
        /// The index of the option (semantics `options`) whose label is the value.
        case option
    }

    public var action: String
    public var argument: String
    public var takes: Takes
    public init(action: String, argument: String, takes: Takes) {
        self.action = action; self.argument = argument; self.takes = takes
    }
}
