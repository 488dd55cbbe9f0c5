const _imports_0 = "/assets/http-chart.C0O9xN-q.png";
export {
  _imports_0 as _
};
