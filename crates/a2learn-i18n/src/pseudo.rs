//! The pseudo-locale's rules, the same as the UI's (`ui/src/i18n/pseudo.ts`): every ASCII letter
//! accented, every vowel doubled (about 35% longer). A word on a page in plain ASCII letters did not
//! come from a catalog; a box too narrow for longer words shows before a translation does.

const LOWER: [char; 26] = [
    'á', 'ƀ', 'ç', 'ð', 'é', 'ƒ', 'ĝ', 'ĥ', 'í', 'ĵ', 'ķ', 'ļ', 'ɱ', 'ñ', 'ó', 'þ', 'ǫ', 'ŕ', 'š',
    'ţ', 'ú', 'ṽ', 'ŵ', 'ẋ', 'ý', 'ž',
];
const UPPER: [char; 26] = [
    'Å', 'Ɓ', 'Ç', 'Ð', 'É', 'Ƒ', 'Ĝ', 'Ĥ', 'Î', 'Ĵ', 'Ķ', 'Ļ', 'Ṁ', 'Ñ', 'Ö', 'Þ', 'Ǫ', 'Ŕ', 'Š',
    'Ţ', 'Û', 'Ṽ', 'Ŵ', 'Ẋ', 'Ý', 'Ž',
];

pub fn pseudo(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for ch in text.chars() {
        let accented = match ch {
            'a'..='z' => LOWER[(ch as u8 - b'a') as usize],
            'A'..='Z' => UPPER[(ch as u8 - b'A') as usize],
            other => {
                out.push(other);
                continue;
            }
        };
        out.push(accented);
        if "aeiouAEIOU".contains(ch) {
            out.push(accented);
        }
    }
    out
}
