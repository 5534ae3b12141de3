'use strict';
(function () {
}());
