/** Amounts in words in the five languages: numbers, the currency's plural forms, gender. */
import assert from "node:assert/strict";
import { amountInWords } from "./money_words.ts";

Deno.test("amountInWords: English, with shekels and agorot, dollars and cents", () => {
  assert.equal(amountInWords(18_050, "ILS", "en"), "one hundred eighty shekels and fifty agorot");
  assert.equal(amountInWords(100, "ILS", "en"), "one shekel");
  assert.equal(amountInWords(1_701, "USD", "en"), "seventeen dollars and one cent");
  assert.equal(amountInWords(5, "USD", "en"), "five cents");
  assert.throws(() => amountInWords(1.5, "ILS", "en"), RangeError);
});

Deno.test("amountInWords: Hebrew counts shekels in the masculine and agorot in the feminine", () => {
  assert.equal(amountInWords(100, "ILS", "he"), "שקל אחד");
  assert.equal(amountInWords(200, "ILS", "he"), "שני שקלים");
  assert.equal(amountInWords(1_502, "ILS", "he"), "חמישה עשר שקלים ושתי אגורות");
  assert.equal(amountInWords(50_000, "ILS", "he"), "חמש מאות שקלים");
  assert.equal(amountInWords(18_050, "ILS", "he"), "מאה שמונים שקלים וחמישים אגורות");
  assert.equal(amountInWords(2_101, "ILS", "he"), "עשרים ואחד שקלים ואגורה אחת");
});

Deno.test("amountInWords: Russian plural forms and the feminine agora", () => {
  assert.equal(amountInWords(2_101, "ILS", "ru"), "двадцать один шекель одна агора");
  assert.equal(amountInWords(200, "USD", "ru"), "два доллара");
  assert.equal(amountInWords(18_050, "ILS", "ru"), "сто восемьдесят шекелей пятьдесят агорот");
});

Deno.test("amountInWords: Spanish and Brazilian Portuguese", () => {
  assert.equal(amountInWords(2_101, "ILS", "es"), "veintiún séqueles con una agorá");
  assert.equal(amountInWords(100, "USD", "es"), "un dólar");
  assert.equal(amountInWords(1_702, "ILS", "pt"), "dezessete shekels e duas agorot");
  assert.equal(amountInWords(100_000_000, "USD", "pt"), "um milhão de dólares");
});
