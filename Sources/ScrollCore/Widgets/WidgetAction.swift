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
