/// Right-aligns a figure in a column of `width` characters (longer text is left as it is).
func rightAligned(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
