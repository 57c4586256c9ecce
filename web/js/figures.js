// The figures on the Madiao cards (docs/rules/madiao.md §1), for each way a deck draws the zero
// cash. GENERATED from the Rust table `madiao::figure` (crates/madiao/src/figures.rs): do not
// edit; run `YEZI_BLESS=1 cargo test -p madiao --test figures` and commit the file.

/** @typedef {'unnamed' | 'blank' | 'wang_ying'} ZeroCash */
/** @typedef {'lu_rong' | 'compilation' | 'li_dongqi' | 'modern_account'} FigureSource */
/** @typedef {{name: string | null, reading: string | null, source: FigureSource}} Figure */

/** The ways to draw the zero cash, the default first. @type {ZeroCash[]} */
export const ZERO_CASH = ["unnamed", "blank", "wang_ying"];

/** Each way's figures, by card code. @type {Record<ZeroCash, Record<string, Figure>>} */
export const FIGURES = {
  unnamed: {
    TW: { name: "宋江", reading: "Song Jiang", source: "lu_rong" },
    TQ: { name: "武松", reading: "Wu Song", source: "lu_rong" },
    TB: { name: "阮小五", reading: "Ruan Xiaowu", source: "lu_rong" },
    T9: { name: "阮小七", reading: "Ruan Xiaoqi", source: "lu_rong" },
    T8: { name: "朱仝", reading: "Zhu Tong", source: "compilation" },
    T7: { name: "孫立", reading: "Sun Li", source: "compilation" },
    T6: { name: "呼延灼", reading: "Huyan Zhuo", source: "compilation" },
    T5: { name: "魯智深", reading: "Lu Zhishen", source: "compilation" },
    T4: { name: "李逵", reading: "Li Kui", source: "compilation" },
    T3: { name: "楊志", reading: "Yang Zhi", source: "compilation" },
    T2: { name: "扈三娘", reading: "Hu Sanniang", source: "compilation" },
    M9: { name: "雷橫", reading: "Lei Heng", source: "compilation" },
    M8: { name: "索超", reading: "Suo Chao", source: "compilation" },
    M7: { name: "秦明", reading: "Qin Ming", source: "compilation" },
    M6: { name: "史進", reading: "Shi Jin", source: "compilation" },
    M5: { name: "李俊", reading: "Li Jun", source: "compilation" },
    M4: { name: "柴進", reading: "Chai Jin", source: "compilation" },
    M3: { name: "關勝", reading: "Guan Sheng", source: "compilation" },
    M2: { name: "花榮", reading: "Hua Rong", source: "compilation" },
    M1: { name: "燕青", reading: "Yan Qing", source: "lu_rong" },
    W0: { name: null, reading: null, source: "li_dongqi" },
  },
  blank: {
    TW: { name: "宋江", reading: "Song Jiang", source: "lu_rong" },
    TQ: { name: "武松", reading: "Wu Song", source: "lu_rong" },
    TB: { name: "阮小五", reading: "Ruan Xiaowu", source: "lu_rong" },
    T9: { name: "阮小七", reading: "Ruan Xiaoqi", source: "lu_rong" },
    T8: { name: "朱仝", reading: "Zhu Tong", source: "compilation" },
    T7: { name: "孫立", reading: "Sun Li", source: "compilation" },
    T6: { name: "呼延灼", reading: "Huyan Zhuo", source: "compilation" },
    T5: { name: "魯智深", reading: "Lu Zhishen", source: "compilation" },
    T4: { name: "李逵", reading: "Li Kui", source: "compilation" },
    T3: { name: "楊志", reading: "Yang Zhi", source: "compilation" },
    T2: { name: "扈三娘", reading: "Hu Sanniang", source: "compilation" },
    M9: { name: "雷橫", reading: "Lei Heng", source: "compilation" },
    M8: { name: "索超", reading: "Suo Chao", source: "compilation" },
    M7: { name: "秦明", reading: "Qin Ming", source: "compilation" },
    M6: { name: "史進", reading: "Shi Jin", source: "compilation" },
    M5: { name: "李俊", reading: "Li Jun", source: "compilation" },
    M4: { name: "柴進", reading: "Chai Jin", source: "compilation" },
    M3: { name: "關勝", reading: "Guan Sheng", source: "compilation" },
    M2: { name: "花榮", reading: "Hua Rong", source: "compilation" },
    M1: { name: "燕青", reading: "Yan Qing", source: "lu_rong" },
  },
  wang_ying: {
    TW: { name: "宋江", reading: "Song Jiang", source: "lu_rong" },
    TQ: { name: "武松", reading: "Wu Song", source: "lu_rong" },
    TB: { name: "阮小五", reading: "Ruan Xiaowu", source: "lu_rong" },
    T9: { name: "阮小七", reading: "Ruan Xiaoqi", source: "lu_rong" },
    T8: { name: "朱仝", reading: "Zhu Tong", source: "compilation" },
    T7: { name: "孫立", reading: "Sun Li", source: "compilation" },
    T6: { name: "呼延灼", reading: "Huyan Zhuo", source: "compilation" },
    T5: { name: "魯智深", reading: "Lu Zhishen", source: "compilation" },
    T4: { name: "李逵", reading: "Li Kui", source: "compilation" },
    T3: { name: "楊志", reading: "Yang Zhi", source: "compilation" },
    T2: { name: "扈三娘", reading: "Hu Sanniang", source: "compilation" },
    M9: { name: "雷橫", reading: "Lei Heng", source: "compilation" },
    M8: { name: "索超", reading: "Suo Chao", source: "compilation" },
    M7: { name: "秦明", reading: "Qin Ming", source: "compilation" },
    M6: { name: "史進", reading: "Shi Jin", source: "compilation" },
    M5: { name: "李俊", reading: "Li Jun", source: "compilation" },
    M4: { name: "柴進", reading: "Chai Jin", source: "compilation" },
    M3: { name: "關勝", reading: "Guan Sheng", source: "compilation" },
    M2: { name: "花榮", reading: "Hua Rong", source: "compilation" },
    M1: { name: "燕青", reading: "Yan Qing", source: "lu_rong" },
    W0: { name: "王英", reading: "Wang Ying", source: "modern_account" },
  },
};
