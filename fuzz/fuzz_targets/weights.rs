//! The loaders of net and weight files, which `EvalFile` points at any file: the chess NNUE
//! net, the chess, Gomoku and xiangqi weight tables, the Othello pattern weights and the
//! Othello book. Input: a byte choosing the loader, then the file. What loads must write
//! back to a file that loads to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    let text = std::str::from_utf8(file).ok();
    match which % 6 {
        0 => {
            use duel_chess::nnue::Network;
            if let Ok(net) = Network::from_bytes(file) {
                let bytes = net.to_bytes();
                let back = Network::from_bytes(&bytes).expect("own net file refused");
                assert!(back.to_bytes() == bytes, "net changed by a round trip");
            }
        }
        1 => {
            use duel_chess::strong::Weights;
            if let Some(Ok(w)) = text.map(Weights::parse) {
                assert_eq!(Weights::parse(&w.to_text("fuzz")), Ok(w));
            }
        }
        2 => {
            use duel_gomoku::PatternWeights;
            if let Some(Ok(w)) = text.map(PatternWeights::parse) {
                assert_eq!(PatternWeights::parse(&w.to_text("fuzz")), Ok(w));
            }
        }
        3 => {
            use duel_xiangqi::strong::Weights;
            if let Some(Ok(w)) = text.map(Weights::parse) {
                assert_eq!(Weights::parse(&w.to_text("fuzz")), Ok(w));
            }
        }
        4 => {
            use duel_othello::Pattern;
            if let Ok(p) = Pattern::from_bytes(file) {
                let bytes = p.to_bytes();
                let back = Pattern::from_bytes(&bytes).expect("own pattern file refused");
                assert!(back.to_bytes() == bytes, "pattern changed by a round trip");
            }
        }
        _ => {
            use duel_othello::book::Book;
            if let Ok(book) = Book::from_bytes(file) {
                assert_eq!(Book::from_bytes(&book.to_bytes()), Ok(book));
            }
        }
    }
});
