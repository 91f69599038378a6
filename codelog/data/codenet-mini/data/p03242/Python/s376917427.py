# coding: utf-8
s = input()  # print answer
print(s.translate(str.maketrans("19", "91")))
