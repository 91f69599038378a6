# coding: utf-8
import sys
import re
# read input
word = sys.stdin.readline().rstrip()
# 出力
while re.search("[01]B", word):
    word = re.sub("[01]B", "", word)
print(word.replace("B", ""))
