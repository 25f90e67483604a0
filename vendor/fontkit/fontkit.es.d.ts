// The ES build's default export (`export default fontkit`) is the object whose members
// `fontkit.d.ts` (the package's own types, written for CommonJS) declares.
import * as fontkit from "./fontkit.d.ts";
export default fontkit;
