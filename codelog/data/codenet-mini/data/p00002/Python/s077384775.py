# coding: utf-8
def calc():
    while True:
        try:
            word = raw_input()
        except EOFError:
            break
        tot,b = [int(chars) for chars in word.split()]
        print len(str(tot * b))


if __name__ == "__main__":
    calc()
