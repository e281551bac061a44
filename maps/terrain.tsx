<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="32" tileheight="32" tilecount="30" columns="8">
 <image source="../assets/tiles/terrain.png" width="256" height="128"/>
 <tile id="0">
  <properties>
   <property name="label" value="grass"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="label" value="dirt"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="label" value="road"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="label" value="floor"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="label" value="cobbles"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="label" value="deck"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="label" value="mud"/>
   <property name="terrain_cost" type="float" value="1.5"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="label" value="shallow_water"/>
   <property name="terrain_cost" type="float" value="2"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="label" value="deep_water"/>
   <property name="deep_water" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="label" value="wall"/>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="label" value="wood_wall"/>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="label" value="low_wall"/>
   <property name="blocks_move" type="bool" value="true"/>
   <property name="cover" propertytype="Cover" value="light"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="label" value="hedge"/>
   <property name="blocks_sight" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="label" value="door_closed"/>
   <property name="door" propertytype="Door" value="closed"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="label" value="door_open"/>
   <property name="door" propertytype="Door" value="open"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="label" value="door_locked"/>
   <property name="door" propertytype="Door" value="locked"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="label" value="rubble"/>
   <property name="cover" propertytype="Cover" value="light"/>
   <property name="hiding_place" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="label" value="ruin"/>
   <property name="cover" propertytype="Cover" value="heavy"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="label" value="crates"/>
   <property name="cover" propertytype="Cover" value="heavy"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="label" value="sandbags"/>
   <property name="cover" propertytype="Cover" value="heavy"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="label" value="barbed_wire"/>
   <property name="crawl_only" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="label" value="crawl_hole"/>
   <property name="crawl_only" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="label" value="climbable_wall"/>
   <property name="climbable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="label" value="tree"/>
   <property name="climbable" type="bool" value="true"/>
   <property name="hiding_place" type="bool" value="true"/>
   <property name="perch" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="label" value="bush"/>
   <property name="cover" propertytype="Cover" value="light"/>
   <property name="hiding_place" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="label" value="manhole"/>
   <property name="trap_spot" type="bool" value="true"/>
   <property name="hiding_place" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="label" value="campfire"/>
   <property name="hazard" propertytype="Hazard" value="campfire"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="label" value="rail"/>
   <property name="blocks_move" type="bool" value="true"/>
   <property name="cover" propertytype="Cover" value="light"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="label" value="mast"/>
   <property name="climbable" type="bool" value="true"/>
   <property name="perch" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="label" value="sky"/>
   <property name="blocks_move" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
