document.getElementById("root").textContent = "fixture";
