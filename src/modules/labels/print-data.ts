/** One label to print: the value its code encodes and its text lines, in the template's field order. */
export interface PrintLabel {
  encoded: string;
  texts: string[];
}
