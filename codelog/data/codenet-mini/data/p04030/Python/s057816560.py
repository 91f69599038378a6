# ABC043 B
def main():
    length=str(input())
    word=[]
    for ret in length:
        if ret=="B":
            if word:
                word.pop()
        else:

            word.append(ret)

    print(" ".join(word))


main()
