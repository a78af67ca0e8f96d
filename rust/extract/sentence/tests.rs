use super::sentence_value;

#[test]
fn reads_the_asserted_value() {
    for (s, want) in [
        ("Gerald's new time is 36 seconds", "36"),
        ("So there are 239 such strings of length 6.", "239"),
        ("The number of diagonals is n(n-3)/2.", "n(n-3)/2"),
        (
            "Thus the smallest possible value is 2, attained when x = 1.",
            "2",
        ),
        (
            "Therefore 7 is the remainder when 2^{100} is divided by 9.",
            "7",
        ),
        (
            "Therefore, the remainder when 2^{100} is divided by 9 is 7.",
            "7",
        ),
        ("Expanding, the polynomial is x^2 + 2x + 1.", "x^2 + 2x + 1"),
        ("$\\angle 2$ measures 52 degrees", "52"),
        ("her salary will be $9360", "9360"),
        // Issue 33, class 2: math spans, several parts, the main verb's number.
        (
            "Hence the maximum value is $\\frac{1}{2}$, attained at $x = 1$.",
            "\\frac{1}{2}",
        ),
        (
            "The minimum value of the expression is 3, which occurs when $a=b=c=1$.",
            "3",
        ),
        ("Therefore, $a = 3$ and $b = -4$.", "a = 3, b = -4"),
        ("So a = 3 and b = -4.", "a = 3, b = -4"),
        ("a = 3 and b = -4 hold", "a = 3, b = -4"),
        (
            "Solving the system we find a = -4 and b = 3.",
            "a = -4, b = 3",
        ),
        ("So $p = 2$, $q = 3$.", "p = 2, q = 3"),
        ("So the solutions are $x = 3$ and $x = 5$.", "x = 3, x = 5"),
        ("Thus the pairs are $(1,2)$ and $(2,1)$.", "(1,2), (2,1)"),
        ("Thus $f(x) = x$ for all $x \\in \\mathbb{R}$.", "f(x) = x"),
        (
            "Therefore $n = 5$ works, and it is the smallest such $n$.",
            "n = 5",
        ),
        (
            "We conclude that $x=4$ is the only real root of $x^3 - 64 = 0$.",
            "x=4",
        ),
        ("So the remainder is 4 when divided by 7.", "4"),
        ("In total, she spent 45 dollars on 3 books.", "45"),
        ("So it takes 6 hours for 3 workers to finish.", "6"),
        ("So Tom has 12 marbles left after giving 3 to Ann.", "12"),
        ("the car travels 250 km in 5 hours", "250"),
        ("In 5 years, she will be 30 years old.", "30"),
        ("So he will be 5+3=8 in 3 years", "8"),
        ("her salary will be $9360 − $360 = $9000", "9000"),
        (
            "So, there are 16 x 3 = 48 kilograms of flour in 3 bags.",
            "48",
        ),
        (
            "so she drinks 240/16 = 15 gallons of water in 30 days",
            "15",
        ),
        (
            "That leaves 40-24 = 16 people that think horse #12 will win",
            "16",
        ),
        ("He can skip 4 class because 10 - 4 = 6", "4"),
        ("In the end, 8 of the 20 apples were red.", "8"),
        ("This gives a total of 14 apples for 2 people.", "14"),
        ("approximately 3.46, i.e. $2\\sqrt{3}$", "2\\sqrt{3}"),
        ("The sum of 3 and 4 is 7, so the product is 12.", "12"),
        (
            "There are 16 cups in 1 gallon so she drinks 240/16 = 15 gallons of water in 30 days",
            "15",
        ),
        (
            "The razors cost $2.00 and she bought 8 so that means each razor costs $2.00/8 = $0.25 each",
            "0.25",
        ),
        ("The probability is 0.5, that is, $\\frac12$.", "\\frac12"),
        (
            "Therefore, Mark has 14 apples, which is 7 more than John.",
            "14",
        ),
    ] {
        assert_eq!(sentence_value(s).as_deref(), Some(want), "{s}");
    }
}

#[test]
fn leaves_what_it_cannot_read() {
    for s in [
        "the mixture contains 45 liters in total, of which 15 liters are water",
        "her salary will be $9360 − $360",
        "there are 3 ways, hence 6 ordered pairs",
        "there are 3 ways and so 6 ordered pairs",
        "the answer is 5! ways",
        "Hence the class has 5 boys and 7 girls.",
        "So 5 friends get 12 cookies each.",
        "The value is not 5 but 6 when x = 2",
        "So $x = 3$ gives $y = 5$.",
        "Therefore, the largest such integer is $n = 23$, and $n = 24$ fails.",
        "She spent 45 dollars on 3 books and 2 pens.",
        "After 3 days she has 12 apples and 4 pears.",
        "They make 10% more per day because 1000 +(1000 x (X/100)) = 1,100 if X = 10",
    ] {
        assert_eq!(sentence_value(s), None, "{s}");
    }
}

#[test]
fn work_is_linear_in_the_sentence() {
    for make in [
        |n: usize| "The value is ".repeat(n) + "5.",
        |n: usize| "x is 1 x ".repeat(n),
        |n: usize| "a = 1 and ".repeat(n) + "b",
        |n: usize| "In 1 x, ".repeat(n) + "5",
    ] {
        let w = |n: usize| crate::work::measure(|| sentence_value(&make(n))).1;
        let (small, big) = (w(30), w(60));
        assert!(big <= 2 * small + 64, "work {small} -> {big}");
    }
}

#[test]
fn arbitrary_text_never_panics() {
    use proptest::prelude::*;
    proptest!(|(s in "[a-z $\\\\(){}=,.0-9°−-]{0,60}")| {
        let _ = sentence_value(&s);
    });
}
