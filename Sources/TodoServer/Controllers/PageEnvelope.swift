/// json-server v1's page envelope, sent for `_page` with `_per_page`.
struct PageEnvelope {
    let page: Int
    let size: Int
    let total: Int

    func json(data: String) -> String {
        let pages = max(1, (total + size - 1) / size)
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        return #"{"first":1,"prev":\#(number(page > 1 ? page - 1 : nil)),"next":\#(number(page < pages ? page + 1 : nil)),"#
            + #""last":\#(pages),"pages":\#(pages),"items":\#(total),"data":\#(data)}"#
    }
}
