# ITP1_6_A Reversing Numbers
def func():
    d = int(input())
    line = input()
    word = [int(v) for v in line.split(" ")]
    tmp = []
    while word:
        tmp.append(word.pop())
    print(" ".join(map(str, tmp)))


func()
