(function(){
function key(td){var v=td.getAttribute('data-v');return v===null?td.textContent:parseFloat(v);}
document.querySelectorAll('table.sortable').forEach(function(t){
 var ths=t.tHead.rows[0].cells;
 Array.prototype.forEach.call(ths,function(th,col){
  th.addEventListener('click',function(){
   var desc=!th.classList.contains('desc');
   Array.prototype.forEach.call(ths,function(h){h.classList.remove('asc','desc');});
   th.classList.add(desc?'desc':'asc');
   var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);
   rows.sort(function(x,y){var a=key(x.cells[col]),c=key(y.cells[col]);
    var r=(typeof a==='number'&&typeof c==='number')?a-c:String(a).localeCompare(String(c));
    return desc?-r:r;});
   rows.forEach(function(r){b.appendChild(r);});
  });
 });
});
})();
